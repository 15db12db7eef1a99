import { join } from 'node:path';
import type { LogEntry } from '../../src/main/sessions/log-records';
import { SessionLogWriter } from '../../src/main/sessions/log-writer';
import { SESSIONS_DIR } from '../../src/main/sessions/session-persistence';

/**
 * Writes a chat straight into a data dir as the app's own log (sessions/<id>/events.jsonl, through
 * the app's SessionLogWriter), so a benchmark can open a chat of any size in seconds instead of
 * building it through hundreds of model requests. The records are the ones a live chat writes:
 * `created`, an `item` per transcript item, `history` appends that keep the API history in step
 * (so the chat can go on), `run` states.
 */
export interface ChatLogShape {
  id: string;
  title: string;
  /** User → reply exchanges. */
  turns: number;
  /** Rich turns: a reply with headings, a table, a code block and a tool card with a file's content (~1,500 tokens); plain turns: one line each way. */
  rich: boolean;
  /** ISO time of the chat's last change (the app lists the newest first). */
  updatedAt: string;
  /** Text the last reply ends with, for the page to find. */
  endMarker?: string;
}

const NOW = '2026-01-01T00:00:00.000Z';

/** A reply as Claude writes one in a working session: prose, a table, a list and a code block. */
export function richReply(n: number): string {
  const rows = Array.from({ length: 6 }, (_, i) => `| \`src/module${n}/part${i}.ts\` | ${10 + ((n * 7 + i * 13) % 90)} | ${i % 2 ? 'changed' : 'unchanged'} | ${['parser', 'store', 'view', 'io', 'cli', 'test'][i]} layer |`);
  const code = Array.from({ length: 18 }, (_, i) =>
    i === 0 ? `export function transform${n}(input: ReadonlyArray<Record<string, unknown>>, options: { strict: boolean } = { strict: true }) {` : i === 17 ? '}' : `  const value${i} = input.filter((row) => typeof row['key${i}'] === 'string' && (!options.strict || row['key${i}'] !== '')).map((row) => String(row['key${i}']).trim()); // step ${i} of turn ${n}`,
  );
  return [
    `## Turn ${n}: what I found`,
    '',
    `I read the files the request touches and compared them with the tests. The module **module${n}** keeps its state in a plain object and the view reads it through \`select${n}()\`; the bug is that the parser returns *partial* rows when a field is empty, so the table below counts lines that were never meant to be there. ${'The fix keeps the public API unchanged and moves the check to the boundary, where the input arrives. '.repeat(2)}`,
    '',
    '| file | lines | status | role |',
    '| --- | ---: | --- | --- |',
    ...rows,
    '',
    'What I changed:',
    '',
    `1. The parser rejects empty keys at the boundary (\`parse${n}\`).`,
    '2. The store keeps only complete rows; the view never sees a partial one.',
    '3. A property test covers every combination of empty and filled fields.',
    '',
    '```typescript',
    ...code,
    '```',
    '',
    `${'Run the tests with `npm test -- --run` to see the change hold; the numbers above come from the current tree. '.repeat(1)}`,
  ].join('\n');
}

function fileContent(n: number): string {
  return Array.from({ length: 20 }, (_, i) => `${String(i + 1).padStart(3)}  export const setting${n}_${i} = { name: 'setting ${i}', enabled: ${i % 3 === 0}, weight: ${(i * 0.37).toFixed(2)} };`).join('\n');
}

/** Writes the chat; returns the number of transcript items and characters of text it holds. */
export function writeChatLog(dataDir: string, shape: ChatLogShape): { items: number; chars: number } {
  const writer = new SessionLogWriter(join(dataDir, SESSIONS_DIR, shape.id, 'events.jsonl'));
  const session = { id: shape.id, title: shape.title, createdAt: NOW, updatedAt: shape.updatedAt };
  const append = (entry: LogEntry) => writer.append(entry, { durable: false });
  append({ type: 'created', session: { ...session, updatedAt: NOW } });
  let history = 0;
  let items = 0;
  let chars = 0;
  const item = (entry: Extract<LogEntry, { type: 'item' }>['item']) => {
    items++;
    chars += 'text' in entry ? entry.text.length : 0;
    if (entry.kind === 'tool_call') chars += (entry.result ?? '').length + JSON.stringify(entry.input).length;
    append({ type: 'item', item: entry });
  };
  for (let n = 0; n < shape.turns; n++) {
    const last = n === shape.turns - 1;
    const userText = n === 0 ? shape.title : shape.rich ? `Next, turn ${n}: look at module${n} and fix what the tests show. Keep the public API as it is.` : `Message ${n}`;
    item({ id: `u${n}`, createdAt: NOW, kind: 'user', text: userText, historyAt: { message: history, block: 0 } });
    append({ type: 'run', state: { status: 'running', phase: 'requesting' } });
    const closing = last && shape.endMarker ? `\n\n${shape.endMarker}` : '';
    if (shape.rich) {
      const toolUseId = `toolu_${n}`;
      const input = { path: `src/module${n}/settings.ts` };
      const result = fileContent(n);
      const intro = `Let me read the settings of module${n} first.`;
      item({ id: `a${n}-0`, createdAt: NOW, kind: 'assistant', text: intro, status: 'done' });
      item({ id: `c${n}`, createdAt: NOW, kind: 'tool_call', toolUseId, name: 'read_file', summary: `Read src/module${n}/settings.ts`, input, status: 'done', result, durationMs: 2 });
      const reply = richReply(n) + closing;
      item({ id: `a${n}-1`, createdAt: NOW, kind: 'assistant', text: reply, status: 'done' });
      const messages = [
        { role: 'user' as const, content: userText },
        { role: 'assistant' as const, content: [{ type: 'text', text: intro }, { type: 'tool_use', id: toolUseId, name: 'read_file', input }] },
        { role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: toolUseId, content: result }] },
        { role: 'assistant' as const, content: [{ type: 'text', text: reply }] },
      ];
      append({ type: 'history', from: history, messages });
      history += messages.length;
    } else {
      const reply = `Reply ${n}: done.${closing}`;
      item({ id: `a${n}`, createdAt: NOW, kind: 'assistant', text: reply, status: 'done' });
      append({ type: 'history', from: history, messages: [{ role: 'user', content: userText }, { role: 'assistant', content: [{ type: 'text', text: reply }] }] });
      history += 2;
    }
    append({ type: 'run', state: { status: 'idle' } });
  }
  append({ type: 'summary', session });
  writer.close();
  return { items, chars };
}

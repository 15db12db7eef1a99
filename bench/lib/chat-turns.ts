import type { LogEntry } from '../../src/main/store/log-records';
import type { TranscriptItem } from '../../src/shared/transcript';

/**
 * The content of the benchmarks' long chats, turn by turn: the transcript items and the API
 * history messages of one user → reply exchange. Plain data, no Node: `chat-log.ts` writes it as
 * the app's log, and the virtualiser page (bench/virtualisers/) renders it in the browser.
 */
export interface ChatTurnShape {
  title: string;
  /** Rich turns: a reply with headings, a table, a code block and a tool card with a file's content (~1,500 tokens); plain turns: one line each way. */
  rich: boolean;
  /** Text the last reply ends with, for the page to find. */
  endMarker?: string;
}

const NOW = '2026-01-01T00:00:00.000Z';
type HistoryMessage = Extract<LogEntry, { type: 'history' }>['messages'][number];

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

/**
 * Turn `n` of a chat of `turns`: its transcript items (the user's message first) and the history
 * messages it adds; `history` is where they start in the API history.
 */
export function chatTurn(shape: ChatTurnShape, n: number, turns: number, history: number): { items: TranscriptItem[]; messages: HistoryMessage[] } {
  const last = n === turns - 1;
  const userText = n === 0 ? shape.title : shape.rich ? `Next, turn ${n}: look at module${n} and fix what the tests show. Keep the public API as it is.` : `Message ${n}`;
  const user: TranscriptItem = { id: `u${n}`, createdAt: NOW, kind: 'user', text: userText, historyAt: { message: history, block: 0 } };
  const closing = last && shape.endMarker ? `\n\n${shape.endMarker}` : '';
  if (!shape.rich) {
    const reply = `Reply ${n}: done.${closing}`;
    return {
      items: [user, { id: `a${n}`, createdAt: NOW, kind: 'assistant', text: reply, status: 'done' }],
      messages: [
        { role: 'user', content: userText },
        { role: 'assistant', content: [{ type: 'text', text: reply }] },
      ],
    };
  }
  const toolUseId = `toolu_${n}`;
  const input = { path: `src/module${n}/settings.ts` };
  const result = fileContent(n);
  const intro = `Let me read the settings of module${n} first.`;
  const reply = richReply(n) + closing;
  return {
    items: [
      user,
      { id: `a${n}-0`, createdAt: NOW, kind: 'assistant', text: intro, status: 'done' },
      { id: `c${n}`, createdAt: NOW, kind: 'tool_call', toolUseId, name: 'read_file', summary: `Read src/module${n}/settings.ts`, input, status: 'done', result, durationMs: 2 },
      { id: `a${n}-1`, createdAt: NOW, kind: 'assistant', text: reply, status: 'done' },
    ],
    messages: [
      { role: 'user', content: userText },
      { role: 'assistant', content: [{ type: 'text', text: intro }, { type: 'tool_use', id: toolUseId, name: 'read_file', input }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: result }] },
      { role: 'assistant', content: [{ type: 'text', text: reply }] },
    ],
  };
}

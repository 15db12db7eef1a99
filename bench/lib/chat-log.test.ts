import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readLog } from '../../src/main/store/log-reader';
import { replay } from '../../src/main/store/replay';
import { writeChatLog } from './chat-log';

// The benchmarks open chats written by writeChatLog: the app's own reader must take every line
// (a skipped line would make the bench measure a smaller chat than it reports).
describe('writeChatLog', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it.each([
    { rich: true, turns: 12, items: 48, history: 48 },
    { rich: false, turns: 50, items: 100, history: 100 },
  ])('writes a chat the app replays whole (rich: $rich)', async ({ rich, turns, items, history }) => {
    const dir = mkdtempSync(join(tmpdir(), 'waypoint-chat-log-'));
    dirs.push(dir);
    const written = writeChatLog(dir, { id: 'c1', title: 'Bench chat', turns, rich, updatedAt: '2026-01-02T00:00:00.000Z', endMarker: 'THE END' });
    const log = await readLog(join(dir, 'sessions', 'c1', 'events.jsonl'));
    expect(log.skipped).toBe(0);
    const chat = replay(log.records)!;
    expect(chat.summary).toMatchObject({ id: 'c1', title: 'Bench chat', updatedAt: '2026-01-02T00:00:00.000Z' });
    expect(chat.transcript).toHaveLength(items);
    expect(written.items).toBe(items);
    expect(chat.history).toHaveLength(history);
    expect(chat.runState).toEqual({ status: 'idle' });
    const last = chat.transcript.at(-1)!;
    expect(last.kind === 'assistant' && last.text.endsWith('THE END')).toBe(true);
    if (rich) {
      expect(chat.transcript.filter((i) => i.kind === 'tool_call')).toHaveLength(turns);
      // Every tool_use in the history is answered by a tool_result, as the API requires.
      const uses = chat.history.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_use').length;
      const results = chat.history.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result').length;
      expect(uses).toBe(turns);
      expect(results).toBe(turns);
    }
  });
});

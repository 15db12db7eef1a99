import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyReader } from './logged-history';
import { readLog } from './log-reader';
import { ChatLogWriter } from './log-writer';
import { replay } from './replay';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-logged-history-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a history read back from its log', () => {
  it('folds the history records at their spans as replay did; a file changed under it falls back', () => {
    const path = join(dir, 'events.jsonl');
    const writer = new ChatLogWriter(path);
    writer.append({ type: 'created', session: { id: 'c', title: 'C', createdAt: 'x', updatedAt: 'x' } });
    writer.append({ type: 'history', from: 0, messages: [{ role: 'user', content: 'one' }] });
    writer.append({ type: 'history', from: 0, messages: [{ role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }, { role: 'assistant', content: 'reply' }] });
    writer.append({ type: 'history', from: 1, messages: [{ role: 'assistant', content: 'other reply' }] });
    writer.close();
    const read = readLog(path);
    const replayed = replay(read.records, { spans: read.spans, path })!;
    expect(replayed.historySpans).toHaveLength(3);
    expect(historyReader(path, replayed.historySpans, () => [])()).toEqual(replayed.history);

    writeFileSync(path, 'not the log any more\n'.repeat(20));
    expect(historyReader(path, replayed.historySpans, () => [{ role: 'user', content: 'fallback' }])()).toEqual([{ role: 'user', content: 'fallback' }]);
  });
});

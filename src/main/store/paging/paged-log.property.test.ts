import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSameTranscript, fullReplay, ids, item, planAt, text } from '../../../../test-support/main/paged-transcript-check';
import { loadChat } from '../load-chats';
import { readLog } from '../log-reader';
import { replay } from '../replay';
import type { LogEntry } from '../log-records';
import { ChatLogWriter } from '../log-writer';
import { findInPagedChat } from '../search/chat-find';
import { searchableChat, searchChats } from '../search/chat-search';

/**
 * The paged transcript against the full replay it replaces: any sequence of item / text / plan /
 * rewind records, written by the real writer and loaded by the real reader with only a few items
 * kept in memory, gives through the index exactly what folding every record in memory gives —
 * every page, every item, every lookup, every search.
 */

const root = mkdtempSync(join(tmpdir(), 'waypoint-paged-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T = '2026-01-01T00:00:00.000Z';
const summary = { id: 'c', title: 'Chat', createdAt: T, updatedAt: T };

const entry: fc.Arbitrary<LogEntry> = fc.oneof(
  { weight: 6, arbitrary: item.map((value): LogEntry => ({ type: 'item', item: value })) },
  { weight: 3, arbitrary: fc.record({ itemId: ids, text: text(30) }).map((t): LogEntry => ({ type: 'text', ...t })) },
  {
    weight: 2,
    arbitrary: fc.record({ id: fc.constantFrom('p1', 'p2'), version: fc.nat(6), done: fc.boolean(), activity: fc.boolean() }).map(
      ({ id, version, done, activity }): LogEntry => ({
        type: 'plan',
        version,
        plan: planAt(id, version, done),
        change: activity ? { kind: 'activity', by: 'claude', summary: 'read a file' } : { kind: 'planning', by: 'claude', summary: `changed to v${version}` },
      }),
    ),
  },
  { weight: 1, arbitrary: fc.record({ itemId: ids, planDropped: fc.boolean() }).map((r): LogEntry => ({ type: 'rewind', ...r })) },
  // History between items, now and then longer than the gap a read spans (log-spans.ts): pages take several reads.
  // Roles by position, so the history stays one the API takes (a chat whose history it would refuse opens damaged).
  {
    weight: 2,
    arbitrary: fc.record({ from: fc.nat(3), size: fc.oneof(fc.nat(20), fc.nat(100_000)), count: fc.integer({ min: 1, max: 2 }) }).map(
      ({ from, size, count }): LogEntry => ({ type: 'history', from, messages: Array.from({ length: count }, (_, i) => ({ role: (from + i) % 2 ? 'assistant' : 'user', content: `${from}:${i}:${'x'.repeat(size)}` })) }),
    ),
  },
);


let run = 0;
function writeLog(entries: readonly LogEntry[], torn: string): string {
  const path = join(root, `chat-${run++}`, 'events.jsonl');
  const writer = new ChatLogWriter(path);
  writer.append({ type: 'created', session: summary });
  for (const e of entries) writer.append(e);
  writer.close();
  if (torn) appendFileSync(path, torn);
  return path;
}

describe('a paged transcript read back from its log', () => {
  it('gives every page, item, lookup and search that the full replay gives, whatever the records', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.nat(4), fc.constantFrom('', '{"seq":999,"t":"x","type":"item","item":{"id":"i1'), (entries, keep, torn) => {
        const path = writeLog(entries, torn);
        const loaded = loadChat(path, summary.id, () => {}, false, keep)!;
        expect(loaded.damaged).toBe(false);
        expectSameTranscript(loaded.restored.session, fullReplay(entries), keep);
        // The API history stays in the log until used, then reads back as replay folded it.
        expect(loaded.restored.session.historyInMemory).toBe(false);
        expect(loaded.restored.session.history).toEqual(replay(readLog(path).records)!.history);
      }),
      { numRuns: 150 },
    );
  });

  it('a damaged log (its first record unreadable) is read back the same way, read-only', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 25 }), fc.nat(3), (entries, keep) => {
        const path = join(root, `damaged-${run++}`, 'events.jsonl');
        const writer = new ChatLogWriter(path);
        writer.append({ type: 'run', state: { status: 'idle' } }); // no `created` first: damaged
        for (const e of entries) writer.append(e);
        writer.close();
        const loaded = loadChat(path, summary.id, () => {}, false, keep)!;
        expect(loaded.damaged).toBe(true);
        const session = loaded.restored.session;
        const expected = fullReplay(entries);
        expect(session.transcript).toEqual(expected);
        for (let start = 0; start < expected.length; start += 2) expect(session.itemsBetween(start, start + 2)).toEqual(expected.slice(start, start + 2));
      }),
      { numRuns: 40 },
    );
  });

  it('finds a match that straddles two text records of one item (the raw filter does not look at such items)', () => {
    const path = writeLog(
      [
        { type: 'item', item: { id: 'a', createdAt: T, kind: 'assistant', text: 'foo', status: 'streaming' } },
        { type: 'text', itemId: 'a', text: 'bar' },
        { type: 'item', item: { id: 'b', createdAt: T, kind: 'notice', level: 'info', text: 'newer' } },
      ],
      '',
    );
    const session = loadChat(path, summary.id, () => {}, false, 0)!.restored.session;
    expect(session.residentItems).toBe(0);
    expect(findInPagedChat(session, 'OOB').matches).toEqual([{ itemId: 'a', snippet: 'foobar', index: 1, occurrence: 0 }]);
    const searchable = searchableChat(session);
    expect(searchChats([searchable], 'oob')).toEqual([{ session: session.summary, snippet: 'foobar' }]);
    expect(searchChats([searchable], 'qqzz')).toEqual([]);
  });
});

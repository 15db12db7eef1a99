import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseLog, readLog } from './log-reader';
import { ChatLogWriter } from './log-writer';
import { replay } from './replay';

const summary = { id: 's1', title: 'T', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' };
const user = { id: 'u1', createdAt: summary.createdAt, kind: 'user', text: 'hello' } as const;
const good = [
  { seq: 0, t: 'x', type: 'created', session: summary },
  { seq: 1, t: 'x', type: 'item', item: user },
  { seq: 2, t: 'x', type: 'history', from: 0, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] },
].map((r) => JSON.stringify(r));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the event log', () => {
  it('appends in order with sequence numbers and reads back what was written', async () => {
    const path = join(dir, 's1', 'events.jsonl');
    const writer = new ChatLogWriter(path);
    writer.append({ type: 'created', session: summary });
    writer.append({ type: 'item', item: user });
    writer.append({ type: 'text', itemId: 'a1', text: 'ignored: no such item' });
    await writer.flushed();
    writer.close();
    const read = readLog(path);
    expect(read.warnings).toEqual([]);
    expect(read.records.map((r) => [r.seq, r.type])).toEqual([[0, 'created'], [1, 'item'], [2, 'text']]);
    expect(read.nextSeq).toBe(3);
    // A second writer continues the numbering.
    const again = new ChatLogWriter(path, read.nextSeq);
    again.append({ type: 'run', state: { status: 'idle' } });
    again.close();
    expect(readLog(path).records.at(-1)).toMatchObject({ seq: 3, type: 'run' });
  });

  const torn: Array<[string, string]> = [
    ['half a JSON object', '{"seq":3,"t":"x","type":"it'],
    ['a complete object without its newline', '{"seq":3,"t":"x","type":"run","state":{"status":"idle"}}'],
    ['a cut multi-byte character', '{"seq":3,"t":"x","type":"item","item":{"text":"caf\u00c3'],
    ['a lone brace', '{'],
  ];
  it.each(torn)('drops a torn last line (%s) with a warning and loads the rest', (_name, tail) => {
    const result = parseLog(`${good.join('\n')}\n${tail}`, 'log');
    expect(result.records).toHaveLength(3);
    expect(result.warnings).toEqual([expect.stringMatching(/torn last line/)]);
    expect(result.intactBytes).toBe(Buffer.byteLength(`${good.join('\n')}\n`));
    expect(replay(result.records)?.transcript).toEqual([user]);
  });

  it('skips invalid JSON, unknown record types, invalid records and out-of-order seqs, each with a warning', () => {
    const lines = [
      good[0],
      'not json at all',
      JSON.stringify({ seq: 1, t: 'x', type: 'future_record', data: 1 }),
      JSON.stringify({ seq: 2, t: 'x', type: 'item', item: { kind: 'user' } }),
      good[1]!.replace('"seq":1', '"seq":5'),
      good[2]!.replace('"seq":2', '"seq":4'),
      '',
    ];
    const result = parseLog(lines.join('\n'), 'log');
    expect(result.records.map((r) => r.seq)).toEqual([0, 5]);
    expect(result.warnings).toHaveLength(4);
    expect(result.warnings.join('\n')).toMatch(/not valid JSON/);
    expect(result.warnings.join('\n')).toMatch(/future_record/);
    expect(result.warnings.join('\n')).toMatch(/seq 4 after 5/);
  });

  it('an empty or headless log replays to nothing rather than failing', () => {
    expect(replay(parseLog('', 'log').records)).toBeNull();
    expect(replay(parseLog(`${good[1]}\n`, 'log').records)).toBeNull();
  });

  it('replay folds history merges, streamed text and plan versions that only move forward', async () => {
    const plan = (version: number) => ({
      id: 'p1', dialect: 'structured', goal: 'g', status: 'active', version, createdAt: 'x', updatedAt: 'x',
      steps: [{ id: 1, title: 'a', status: 'pending', dependsOn: [], notes: [], attempts: [] }],
      summary: { total: 1, completed: 0, in_progress: 0, pending: 1, failed: 0, skipped: 0, percent: 0 },
    });
    const records = [
      ...good,
      JSON.stringify({ seq: 3, t: 'x', type: 'item', item: { id: 'a1', createdAt: 'x', kind: 'assistant', text: '', status: 'streaming' } }),
      JSON.stringify({ seq: 4, t: 'x', type: 'text', itemId: 'a1', text: 'Hel' }),
      JSON.stringify({ seq: 5, t: 'x', type: 'text', itemId: 'a1', text: 'lo' }),
      JSON.stringify({ seq: 6, t: 'x', type: 'history', from: 0, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }, { type: 'text', text: 'more' }] }] }),
      JSON.stringify({ seq: 7, t: 'x', type: 'plan', version: 2, plan: plan(2) }),
      JSON.stringify({ seq: 8, t: 'x', type: 'plan', version: 1, plan: plan(1) }),
    ];
    await writeFile(join(dir, 'log.jsonl'), `${records.join('\n')}\n`);
    const read = readLog(join(dir, 'log.jsonl'));
    const chat = replay(read.records)!;
    expect(chat.transcript.at(-1)).toMatchObject({ id: 'a1', text: 'Hello' });
    expect(chat.history).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }, { type: 'text', text: 'more' }] }]);
    expect(chat.plan?.version).toBe(2);
    expect(await readFile(join(dir, 'log.jsonl'), 'utf8')).toContain('"seq":8');
  });
});

describe('a record out of order', () => {
  const lines = (seqs: number[]) =>
    seqs.map((seq, i) =>
      JSON.stringify(
        i === 0
          ? { seq, t: 'x', type: 'created', session: summary }
          : { seq, t: 'x', type: 'item', item: { id: `u${i}`, createdAt: 'x', kind: 'user', text: `message ${i}` } },
      ),
    );

  it('with a future seq is skipped alone: the records after it are kept', () => {
    const seqs = [0, 1, 2, 3, 1_000_000, 4, 5, 6, 7];
    const result = parseLog(`${lines(seqs).join('\n')}\n`, 'log');
    expect(result.records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(result.skipped).toBe(1);
    expect(result.warnings).toEqual([expect.stringMatching(/line 5 has seq 1000000, ahead of the records after it; skipped/)]);
    expect(result.nextSeq).toBe(8);
    expect(replay(result.records)!.transcript.map((i) => i.id)).toEqual(['u1', 'u2', 'u3', 'u5', 'u6', 'u7', 'u8']);
  });

  it('with a past seq (a copied line) is skipped alone', () => {
    const result = parseLog(`${lines([0, 1, 2, 3, 1, 4, 5]).join('\n')}\n`, 'log');
    expect(result.records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(result.skipped).toBe(1);
  });

  it('read piece by piece (a follower) keeps only records newer than what it read', () => {
    const result = parseLog(`${lines([0, 2, 3, 4]).join('\n')}\n`, 'log', 2);
    expect(result.records.map((r) => r.seq)).toEqual([3, 4]);
    expect(result.nextSeq).toBe(5);
  });
});

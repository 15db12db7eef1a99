import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faultyFs } from '../../../test-support/faulty-fs';
import { parseLog } from './log-reader';
import { ChatLogWriter } from './log-writer';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-writer-faults-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const until = async (condition: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('the log writer when the disk fails', () => {
  it('a full disk (a short write, then ENOSPC) never throws, keeps every record in order, and writes them when space returns', async () => {
    const fs = faultyFs();
    const events: string[] = [];
    const path = join(dir, 'events.jsonl');
    const writer = new ChatLogWriter(path, 0, { fs, retryMs: 10, onFault: (e) => events.push(`fault ${e.code}`), onRecovered: () => events.push('recovered') });
    writer.append({ type: 'text', itemId: 'a', text: 'before the disk filled' });
    fs.full = true;
    fs.roomBytes = 20; // the next record is cut after 20 bytes
    for (let i = 0; i < 5; i++) expect(() => writer.append({ type: 'text', itemId: 'a', text: `while full ${i}` })).not.toThrow();
    expect(writer.failing).toBe(true);
    expect(events).toEqual(['fault ENOSPC']); // told once, not per record
    // What is on disk now: the first record whole, and a torn start of the next, which a reader drops.
    const meanwhile = parseLog(readFileSync(path, 'utf8'));
    expect(meanwhile.records.map((r) => r.type === 'text' && r.text)).toEqual(['before the disk filled']);
    fs.full = false;
    await until(() => !writer.failing);
    expect(events).toEqual(['fault ENOSPC', 'recovered']);
    writer.append({ type: 'text', itemId: 'a', text: 'after' });
    writer.close();
    const read = parseLog(readFileSync(path, 'utf8'));
    expect(read.warnings).toEqual([]);
    expect(read.records.map((r) => (r.type === 'text' ? r.text : r.type))).toEqual(['before the disk filled', ...Array.from({ length: 5 }, (_, i) => `while full ${i}`), 'after']);
    expect(read.records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('EMFILE at open (a new chat during descriptor exhaustion): the first records, the user message included, are written once a descriptor is free', async () => {
    const fs = faultyFs();
    fs.noFiles = true;
    const path = join(dir, 'new-chat', 'events.jsonl');
    let faults = 0;
    const writer = new ChatLogWriter(path, 0, { fs, retryMs: 10, onFault: () => faults++ });
    writer.append({ type: 'item', item: { id: 'u1', createdAt: 'x', kind: 'user', text: 'my message must not be lost' } });
    expect(writer.failing).toBe(true);
    fs.noFiles = false;
    await until(() => !writer.failing);
    writer.close();
    expect(faults).toBe(1);
    const read = parseLog(readFileSync(path, 'utf8'));
    expect(read.records).toEqual([expect.objectContaining({ type: 'item', item: expect.objectContaining({ text: 'my message must not be lost' }) })]);
  });
});

import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeLogFileSystem, type LogFileSystem } from './log-file-system';
import { ChatLogWriter } from './log-writer';

/**
 * The writer looks whether its path still names its open file once per turn of the event loop
 * (two stats), not before every record; a file put in its place is still noticed before the next
 * turn's first record, and nothing is written to it.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-writer-turns-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The real file system, counting the "same file?" looks. */
function counted(): LogFileSystem & { looks: number } {
  const fs = {
    ...nodeLogFileSystem,
    looks: 0,
    sameFile(fd: number, path: string) {
      fs.looks++;
      return nodeLogFileSystem.sameFile(fd, path);
    },
  };
  return fs;
}
const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the log writer, turn by turn', () => {
  it('twenty records in one turn look at the file once; the next turn looks again', async () => {
    const fs = counted();
    const path = join(dir, 'events.jsonl');
    const writer = new ChatLogWriter(path, 0, { fs });
    writer.append({ type: 'run', state: { status: 'idle' } }); // opens the file
    await turnEnd();
    for (let i = 0; i < 20; i++) writer.append({ type: 'run', state: i % 2 ? { status: 'running', phase: 'tools' } : { status: 'idle' } });
    expect(fs.looks).toBe(1);
    await turnEnd();
    writer.append({ type: 'run', state: { status: 'idle' } });
    expect(fs.looks).toBe(2);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(22);
    writer.close();
  });

  it('a file put in its place between turns is noticed before the next record, and left as it is', async () => {
    const path = join(dir, 'events.jsonl');
    const changes: string[] = [];
    const writer = new ChatLogWriter(path, 0, { fs: counted(), onForeignChange: (what) => changes.push(what) });
    writer.append({ type: 'run', state: { status: 'idle' } });
    writer.append({ type: 'run', state: { status: 'running', phase: 'tools' } });
    await turnEnd();
    // Saved by an editor: a new file renamed over the log, as long as the one the writer wrote.
    const replacement = join(dir, 'saved.tmp');
    writeFileSync(replacement, readFileSync(path));
    renameSync(replacement, path);
    const saved = readFileSync(path, 'utf8');

    writer.append({ type: 'run', state: { status: 'idle' } });
    expect(changes).toEqual(['another file has its name now (it was replaced, moved or removed)']);
    expect(readFileSync(path, 'utf8')).toBe(saved);
    writer.close();
  });
});

import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { readRegularFile } from '../common/regular-file';
import { confine } from '../tools/workspace/confine';

/**
 * What the two kinds of file checkpoint share (a plan's, checkpoints.ts; a turn's,
 * turn-checkpoints.ts): paths confined to the workspace as the file tools confine them, and
 * contents stored once by hash under `<dataDir>/checkpoints/<session>/blobs/`.
 */

/** A content hash, or null for "the file did not exist". */
export type Snapshot = string | null;

/** A path inside the chat's workspace, confined exactly as the file tools confine it: nothing outside it is ever touched. */
export function resolveIn(root: string | null, relPath: string): { abs: string; rel: string } | null {
  if (!root) return null;
  const confined = confine(root, relPath);
  if (!confined.ok || confined.path.rel === '.') return null;
  return { abs: confined.path.abs, rel: confined.path.rel };
}

export const safeName = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120) || '_';
const hashOf = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

export class CheckpointBlobs {
  constructor(private readonly dataDir: string) {}

  dir(sessionId: string): string {
    return path.join(this.dataDir, 'checkpoints', safeName(sessionId));
  }

  /** Stores the current content as a blob; null when absent, 'folder' for a directory or anything not a regular file. */
  async snapshot(sessionId: string, abs: string): Promise<Snapshot | 'folder'> {
    const stat = await fsp.stat(abs).catch(() => null);
    if (!stat) return null;
    // A FIFO, socket or device is never read (a FIFO would hold a thread forever); the tool refuses to write it anyway.
    if (!stat.isFile()) return 'folder';
    return this.store(sessionId, await fsp.readFile(abs));
  }

  /** Stores content read elsewhere (a command's snapshot, command-snapshots.ts) as a blob. */
  async store(sessionId: string, data: Buffer): Promise<string> {
    const hash = hashOf(data);
    const blob = path.join(this.dir(sessionId), 'blobs', hash);
    await fsp.mkdir(path.dirname(blob), { recursive: true });
    await fsp.writeFile(blob, data, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    return hash;
  }

  async currentHash(abs: string): Promise<Snapshot> {
    try {
      return hashOf(await fsp.readFile(abs));
    } catch {
      return null;
    }
  }

  /** Writes a snapshot back: its content, or no file at all. */
  async put(sessionId: string, abs: string, snapshot: Snapshot): Promise<void> {
    if (snapshot === null) {
      await fsp.rm(abs, { force: true });
      return;
    }
    const data = await readRegularFile(path.join(this.dir(sessionId), 'blobs', snapshot));
    await fsp.mkdir(path.dirname(abs), { recursive: true });
    await fsp.writeFile(abs, data);
  }
}

/** One queue for all checkpoint work: tool calls are sequential anyway, and a restore must not race a write. */
export class SerialQueue {
  private queue: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The one way Waypoint replaces a file whole, so readers (this process, another process on the
 * data folder, the next start after a crash) see the old content or the new, never half:
 * a temp file in the same folder (same filesystem, so the rename is atomic), fsync of its bytes,
 * rename over the target, fsync of the folder so the rename itself survives a power cut.
 */

export interface AtomicWriteOptions {
  /** Permission bits of the new file (before the umask). Secrets and chat data pass 0o600. */
  mode?: number;
}

const tempFor = (path: string): string => join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);

export async function writeFileAtomic(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = tempFor(path);
  const handle = await open(temp, 'w', options.mode ?? 0o666);
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDir(dirname(path));
}

/** The same, for the few writers that must finish before returning (a secret saved on quit, an inbox request). */
export function writeFileAtomicSync(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const temp = tempFor(path);
  try {
    const fd = openSync(temp, 'w', options.mode ?? 0o666);
    try {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Never created, or already renamed.
    }
    throw error;
  }
  syncDirSync(dirname(path));
}

/** Persists the rename itself; folders cannot be fsynced everywhere (Windows), so best effort. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Unsupported here; the rename is still atomic.
  }
}

function syncDirSync(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Unsupported here; the rename is still atomic.
  }
}

/**
 * Atomic writes serialised per path: a slow older write of a file (the plan's WBS.md, written on
 * every change) can never land after a newer one. Creates the folder when missing.
 */
export class AtomicFileWriter {
  private readonly queues = new Map<string, Promise<void>>();

  write(path: string, content: string): Promise<void> {
    const previous = this.queues.get(path) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(path), { recursive: true });
        await writeFileAtomic(path, content);
      });
    this.queues.set(path, next);
    void next
      .finally(() => {
        if (this.queues.get(path) === next) this.queues.delete(path);
      })
      .catch(() => undefined);
    return next;
  }
}

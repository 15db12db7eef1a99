import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a file atomically (temp file in the same folder, then rename) so a reader never sees a
 * half-written WBS.md, and serialises writes per path so a slow older write cannot land last.
 */
export class AtomicFileWriter {
  private readonly queues = new Map<string, Promise<void>>();

  write(path: string, content: string): Promise<void> {
    const previous = this.queues.get(path) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => writeAtomically(path, content));
    this.queues.set(path, next);
    void next.finally(() => {
      if (this.queues.get(path) === next) this.queues.delete(path);
    }).catch(() => undefined);
    return next;
  }
}

async function writeAtomically(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

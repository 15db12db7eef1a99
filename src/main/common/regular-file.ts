import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Opening files of the data folder without ever blocking on one that is not a file. A FIFO
 * planted where a chat log, a settings file or an attachment should be makes a plain open wait
 * for a writer (or a reader) forever — on the main thread for a synchronous open, on a libuv
 * thread for an asynchronous one. So the open is non-blocking (a FIFO opens at once for reading,
 * and fails with ENXIO for writing when nobody reads), and the OPENED descriptor is checked with
 * fstat: only a regular file is read or written. Checking the path first (lstat, then open)
 * would leave a window in which the file is swapped; the descriptor is what is used.
 * (The workspace tools do the same and more in tools/workspace/verified-open.ts.)
 */
const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_NONBLOCK } = constants;

/** What a path held instead of a file; its `code` is ENOTREG (fs-words.ts says it in words). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${path} is ${what}, not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/** "a pipe (FIFO)", "a folder", … for a stat that is not a regular file. */
export function describeNonFile(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

function checked(fd: number, path: string): number {
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (stat.isFile()) return fd;
  closeSync(fd);
  throw new NotRegularFileError(path, describeNonFile(stat));
}

/** A descriptor of the regular file at `path` for reading; throws NotRegularFileError (or ENOENT, …). */
export function openRegularForReading(path: string): number {
  return checked(openSync(path, O_RDONLY | O_NONBLOCK), path);
}

/** A descriptor for appending (the file created with `mode` when missing); a FIFO, device or folder is refused. */
export function openRegularForAppending(path: string, mode = 0o600): number {
  try {
    return checked(openSync(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK, mode), path);
  } catch (error) {
    // A FIFO nobody reads refuses a non-blocking open for writing.
    if ((error as NodeJS.ErrnoException).code === 'ENXIO') throw new NotRegularFileError(path, 'a pipe (FIFO)');
    throw error;
  }
}

/** The whole regular file at `path`, synchronously. */
export function readRegularFileSync(path: string): Buffer {
  const fd = openRegularForReading(path);
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    // Read to the end rather than to the size fstat gave: a log may grow while it is read.
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.max(64 * 1024, fstatSync(fd).size - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** The whole regular file at `path`, off the main thread. */
export async function readRegularFile(path: string): Promise<Buffer> {
  const handle = await open(path, O_RDONLY | O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new NotRegularFileError(path, describeNonFile(stat));
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

import fs from 'node:fs/promises';

/** More than any prompt can take (40,000 characters in all): a huge file is read only this far. */
const MAX_READ_BYTES = 256 * 1024;

interface Cached {
  mtimeMs: number;
  size: number;
  ino: number;
  text: string;
}

/**
 * Instruction files are read for every request (an edit on disk applies from the next message),
 * so each is stat'ed and read again only when its modification time, size or inode changed.
 */
export class TextFileCache {
  private readonly files = new Map<string, Cached>();

  /** The file's text, or null when it is missing or not a regular file. */
  async read(file: string): Promise<string | null> {
    let stat;
    try {
      stat = await fs.stat(file);
    } catch {
      this.files.delete(file);
      return null;
    }
    if (!stat.isFile()) return null;
    const known = this.files.get(file);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size && known.ino === stat.ino) return known.text;
    const text = await readHead(file);
    if (text === null) return null;
    this.files.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, text });
    return text;
  }
}

async function readHead(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await fs.open(file, 'r');
    const buffer = Buffer.alloc(MAX_READ_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_READ_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

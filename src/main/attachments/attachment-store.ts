import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Attachment, AttachmentId } from '../../shared/attachments';
import { writeFileAtomic } from '../common/atomic-write';
import { readRegularFile } from '../common/regular-file';

/**
 * Attachments on disk, once each: `attachments/<sha256>` holds the bytes, `<sha256>.json` what
 * they are. The same file attached twice (or in two chats) is stored once; logs and histories
 * name it by its hash. A write is durable (fsync, then rename) before its id is handed out, so a
 * log never names bytes that a crash lost.
 */

export const ATTACHMENTS_DIR = 'attachments';

/** What the bytes are; the name is not here: one file may be attached under several names. */
export const StoredMeta = Attachment.omit({ id: true, name: true });
export type StoredMeta = z.infer<typeof StoredMeta>;

/** Base64 of recently sent files, so a tool loop does not re-read a PDF from disk every turn. */
const BASE64_CACHE_CHARS = 96 * 1024 * 1024;

export class AttachmentStore {
  private readonly metas = new Map<string, StoredMeta>();
  /** Files whose bytes matched their hash, with what the file system said of them then. */
  private readonly verified = new Map<string, string>();
  private readonly base64Cache = new Map<string, string>();
  private cachedChars = 0;

  constructor(readonly dir: string) {}

  static idOf(bytes: Uint8Array): string {
    return createHash('sha256').update(bytes).digest('hex');
  }

  /** Stores the bytes (once) and their description; returns their id. */
  async put(bytes: Buffer, meta: StoredMeta): Promise<string> {
    const id = AttachmentStore.idOf(bytes);
    const parsed = StoredMeta.parse({ ...meta, size: bytes.length });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // A copy already there is trusted only if it still matches its hash; a damaged one is
    // replaced (atomically: a new file renamed over it), so attaching the file again repairs it.
    if ((await this.read(id)) === null) {
      this.verified.delete(id);
      await writeFileAtomic(this.path(id), bytes, { mode: 0o600 });
    }
    await writeFileAtomic(`${this.path(id)}.json`, JSON.stringify(parsed), { mode: 0o600 });
    this.metas.set(id, parsed);
    return id;
  }

  /** What a stored file is, or null when there is no such file (or it is damaged). */
  async meta(id: string): Promise<StoredMeta | null> {
    if (!AttachmentId.safeParse(id).success) return null;
    const held = this.metas.get(id);
    if (held) return held;
    try {
      // Regular files only: a FIFO planted here would hold the read (and a libuv thread) forever.
      const parsed = StoredMeta.safeParse(JSON.parse((await readRegularFile(`${this.path(id)}.json`)).toString('utf8')));
      if (!parsed.success || !(await this.exists(id))) return null;
      this.metas.set(id, parsed.data);
      return parsed.data;
    } catch {
      return null;
    }
  }

  /** The bytes, checked against their hash (a damaged file is treated as missing). */
  async read(id: string): Promise<Buffer | null> {
    if (!AttachmentId.safeParse(id).success) return null;
    try {
      const seen = signature(await stat(this.path(id)));
      const bytes = await readRegularFile(this.path(id));
      if (AttachmentStore.idOf(bytes) !== id) return null;
      this.verified.set(id, seen);
      return bytes;
    } catch {
      return null;
    }
  }

  /**
   * Whether a stored file can be sent: there, and its bytes still match its hash. The hash is
   * checked again only when the file changed since it last matched (size, time, inode), so
   * sending a message does not read every file it names each time.
   */
  async check(id: string): Promise<'ok' | 'missing' | 'damaged'> {
    if (!(await this.meta(id))) return 'missing';
    try {
      const held = this.verified.get(id);
      if (held !== undefined && held === signature(await stat(this.path(id)))) return 'ok';
    } catch {
      return 'missing';
    }
    return (await this.read(id)) ? 'ok' : 'damaged';
  }

  async base64(id: string): Promise<string | null> {
    const held = this.base64Cache.get(id);
    if (held !== undefined) {
      // Least recently used goes first: move this one to the end.
      this.base64Cache.delete(id);
      this.base64Cache.set(id, held);
      return held;
    }
    const bytes = await this.read(id);
    if (!bytes) return null;
    const encoded = bytes.toString('base64');
    this.base64Cache.set(id, encoded);
    this.cachedChars += encoded.length;
    for (const [key, value] of this.base64Cache) {
      if (this.cachedChars <= BASE64_CACHE_CHARS || key === id) break;
      this.base64Cache.delete(key);
      this.cachedChars -= value.length;
    }
    return encoded;
  }

  path(id: string): string {
    return join(this.dir, id);
  }

  private async exists(id: string): Promise<boolean> {
    try {
      return (await stat(this.path(id))).isFile();
    } catch {
      return false;
    }
  }
}

function signature(facts: Stats): string {
  return `${facts.size}:${facts.mtimeMs}:${facts.ino}`;
}

import { randomUUID } from 'node:crypto';
import { ATTACHMENT_LIMITS, refusalByNameAndSize } from '../../shared/attachments';
import { UserFacingError } from '../common/errors';
import { AttachmentRefusal } from './attachment-refusal';

/**
 * Files arriving in pieces (the web shell's WebSocket caps a frame at 16 MB, and every payload is
 * validated, so a file travels as base64 chunks of at most 4 MB). Bounded: a few uploads at a
 * time, their bytes held in memory only until finished.
 *
 * An upload whose client went away (a closed tab, a crashed window) must never lock the user
 * out, so the bounds never refuse a new upload: it makes room by dropping the uploads that went
 * longest without a piece — first the same client's beyond its share, then anyone's — and an
 * upload no piece reached for two minutes is dropped anyway. A web-shell socket that closes takes
 * its uploads with it at once. The renderer sends one file at a time, piece after piece, so an
 * upload still in use is always among the most recently active (docs/security.md, "Attachments").
 */

export const MAX_OPEN_UPLOADS = 24;
/** The renderer sends one file at a time; more unfinished than this from one client are abandoned ones. */
export const MAX_UPLOADS_PER_CLIENT = 4;
/** All unfinished uploads together (a message carries at most 20 files of at most 30 MB). */
export const MAX_OPEN_UPLOAD_BYTES = 160 * 1024 * 1024;
/** Pieces come back to back from a local client; two minutes without one is a client gone. */
export const UPLOAD_IDLE_MS = 2 * 60_000;

interface OpenUpload {
  name: string;
  /** The connection that started it (a web-shell socket); none for the Electron window. */
  client: string | undefined;
  size: number;
  chunks: Buffer[];
  received: number;
  touchedAt: number;
}

export class Uploads {
  private readonly open = new Map<string, OpenUpload>();

  constructor(private readonly now: () => number = Date.now) {}

  start(name: string, size: number, client?: string): { uploadId: string; chunkBytes: number } {
    const refusal = refusalByNameAndSize(name, size);
    if (refusal) throw new AttachmentRefusal(refusal);
    this.dropStale();
    this.makeRoom(size, client);
    const uploadId = randomUUID();
    this.open.set(uploadId, { name, client, size, chunks: [], received: 0, touchedAt: this.now() });
    return { uploadId, chunkBytes: ATTACHMENT_LIMITS.uploadChunkBytes };
  }

  chunk(uploadId: string, offset: number, base64: string): { received: number } {
    const upload = this.require(uploadId);
    if (offset !== upload.received) {
      throw new UserFacingError('invalid_input', `"${upload.name}": a piece arrived for byte ${offset}, but ${upload.received} bytes have come so far. Attach the file again.`);
    }
    const bytes = Buffer.from(base64, 'base64');
    if (bytes.length === 0 || bytes.length > ATTACHMENT_LIMITS.uploadChunkBytes || upload.received + bytes.length > upload.size) {
      this.open.delete(uploadId);
      throw new UserFacingError('invalid_input', `"${upload.name}" sent more bytes than the ${upload.size} it announced; the upload was dropped.`);
    }
    upload.chunks.push(bytes);
    upload.received += bytes.length;
    upload.touchedAt = this.now();
    return { received: upload.received };
  }

  /** The whole file, once every byte announced has come; the upload is closed either way. */
  take(uploadId: string): { name: string; bytes: Buffer } {
    const upload = this.require(uploadId);
    this.open.delete(uploadId);
    if (upload.received !== upload.size) {
      throw new UserFacingError('invalid_input', `"${upload.name}" is incomplete (${upload.received} of ${upload.size} bytes came). Attach it again.`);
    }
    return { name: upload.name, bytes: Buffer.concat(upload.chunks, upload.size) };
  }

  /** The client's connection closed: nothing it started can finish, so its bytes go now. */
  clientGone(client: string): void {
    for (const [id, upload] of this.open) if (upload.client === client) this.open.delete(id);
  }

  get count(): number {
    return this.open.size;
  }

  private require(uploadId: string): OpenUpload {
    this.dropStale();
    const upload = this.open.get(uploadId);
    if (!upload) {
      throw new UserFacingError(
        'not_found',
        `That upload is unknown, or it was dropped: no piece came for ${UPLOAD_IDLE_MS / 60_000} minutes, or newer uploads needed the room. Attach the file again.`,
      );
    }
    return upload;
  }

  private dropStale(): void {
    const cutoff = this.now() - UPLOAD_IDLE_MS;
    for (const [id, upload] of this.open) if (upload.touchedAt < cutoff) this.open.delete(id);
  }

  /**
   * Drops the uploads that went longest without a piece until one of `size` bytes fits: first
   * the client's own beyond its share, then anyone's within the overall bounds.
   */
  private makeRoom(size: number, client: string | undefined): void {
    if (client !== undefined) {
      const own = () => [...this.open].filter(([, upload]) => upload.client === client);
      for (let mine = own(); mine.length >= MAX_UPLOADS_PER_CLIENT; mine = own()) this.open.delete(leastRecent(mine)[0]);
    }
    let reserved = [...this.open.values()].reduce((sum, u) => sum + u.size, 0);
    while (this.open.size > 0 && (this.open.size >= MAX_OPEN_UPLOADS || reserved + size > MAX_OPEN_UPLOAD_BYTES)) {
      const [id, upload] = leastRecent([...this.open]);
      this.open.delete(id);
      reserved -= upload.size;
    }
  }
}

function leastRecent(entries: ReadonlyArray<[string, OpenUpload]>): [string, OpenUpload] {
  return entries.reduce((oldest, entry) => (entry[1].touchedAt < oldest[1].touchedAt ? entry : oldest));
}

import { join } from 'node:path';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import { messageAttachmentsProblem, refusalByNameAndSize, type Attachment, type AttachmentRef } from '../../shared/attachments';
import { cleanFileName } from '../../shared/attachment-names';
import { UserFacingError } from '../common/errors';
import { AttachmentRefusal } from './attachment-refusal';
import { resolveAttachments } from './attachment-blocks';
import { ATTACHMENTS_DIR, AttachmentStore } from './attachment-store';
import { AttachmentChecks, CHECK_LIMITS } from './checks-in-worker';
import { imagePreview } from './prepare-image';
import { Uploads } from './uploads';

/** An image a tool returned: base64 as MCP carries it. */
export interface ToolImage {
  mediaType: string;
  data: string;
}

/**
 * Attachments for the app: uploads in pieces, checked and stored once by content hash, previews
 * for the transcript, the files a message names, images tools return, and the request that goes
 * to Claude with every reference filled in.
 */
export class AttachmentService {
  readonly store: AttachmentStore;
  private readonly uploads = new Uploads();
  private readonly checks: AttachmentChecks;

  /** `limits` of each file's check: the defaults, or tighter ones a test sets. */
  constructor(dataDir: string, limits: { checkTimeMs?: number; checkHeapMb?: number } = {}) {
    this.store = new AttachmentStore(join(dataDir, ATTACHMENTS_DIR));
    this.checks = new AttachmentChecks({ timeMs: limits.checkTimeMs ?? CHECK_LIMITS.timeMs, heapMb: limits.checkHeapMb ?? CHECK_LIMITS.heapMb });
  }

  /** `client`: the connection it came over, if the shell has several (uploads.ts). */
  startUpload(name: string, size: number, client?: string): { uploadId: string; chunkBytes: number } {
    return this.uploads.start(name, size, client);
  }

  /** A connection closed: the uploads it started can never finish. */
  clientGone(client: string): void {
    this.uploads.clientGone(client);
  }

  uploadChunk(uploadId: string, offset: number, data: string): { received: number } {
    return this.uploads.chunk(uploadId, offset, data);
  }

  /** Checks the whole file and stores it; refused files name themselves and the reason, and store nothing. */
  async finishUpload(uploadId: string): Promise<Attachment> {
    const { name, bytes } = this.uploads.take(uploadId);
    return this.add(name, bytes);
  }

  async add(name: string, bytes: Buffer): Promise<Attachment> {
    // By name and size first, on main: nothing starts for a file refused by those alone.
    const refusal = refusalByNameAndSize(name, bytes.length);
    if (refusal) throw new AttachmentRefusal(refusal);
    const prepared = await this.checks.file(name, bytes);
    const id = await this.store.put(prepared.bytes, prepared.meta);
    return { id, name, ...prepared.meta };
  }

  /** The attachments a message names, as stored; unknown ids and too much at once are refused. */
  async forMessage(refs: readonly AttachmentRef[]): Promise<Attachment[]> {
    const found: Attachment[] = [];
    for (const ref of refs) {
      const health = await this.store.check(ref.id);
      const meta = await this.store.meta(ref.id);
      if (health === 'missing' || !meta) throw new UserFacingError('not_found', `"${ref.name}" is no longer in Waypoint's data folder. Remove it and attach it again.`);
      if (health === 'damaged') {
        throw new UserFacingError(
          'invalid_input',
          `"${ref.name}" is damaged in Waypoint's data folder (its content no longer matches what was attached). Remove it and attach the file again.`,
        );
      }
      found.push({ id: ref.id, name: ref.name, ...meta });
    }
    const problem = messageAttachmentsProblem(found);
    if (problem) throw new AttachmentRefusal(problem);
    return found;
  }

  async preview(id: string): Promise<string | null> {
    const meta = await this.store.meta(id);
    if (meta?.kind !== 'image') return null;
    const bytes = await this.store.read(id);
    if (!bytes) return null;
    try {
      return `data:image/webp;base64,${(await imagePreview(bytes)).toString('base64')}`;
    } catch {
      return null;
    }
  }

  /**
   * Images a tool returned, checked and scaled like attached ones. Each one that cannot be sent
   * becomes a sentence for Claude instead, so a bad image never breaks the request.
   */
  async fromTool(toolName: string, images: readonly ToolImage[]): Promise<{ attachments: Attachment[]; problems: string[] }> {
    const attachments: Attachment[] = [];
    const problems: string[] = [];
    for (const [i, image] of images.entries()) {
      const ext = image.mediaType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'img';
      // A tool's name and media type come from an MCP server: cleaned like a name the user gave.
      const name = cleanFileName(`${toolName}-image-${i + 1}.${ext}`);
      try {
        const { bytes, meta } = await this.checks.image(name, Buffer.from(image.data, 'base64'));
        attachments.push({ id: await this.store.put(bytes, meta), name, ...meta });
      } catch (error) {
        problems.push(error instanceof AttachmentRefusal ? error.message : `An image the tool returned could not be stored (${String(error)}).`);
      }
    }
    return { attachments, problems };
  }

  resolve(request: MessageCreateParamsBase): Promise<MessageCreateParamsBase> {
    return resolveAttachments(request, this.store);
  }
}

import type {
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { ATTACHMENT_LIMITS, type Attachment } from '../../shared/attachments';
import { cleanFileName } from '../../shared/attachment-names';
import type { StoredMeta } from './attachment-store';
import { frameTextFile } from './text-file-framing';

/**
 * The API history (and so the log) holds an attachment as a reference: an image or document
 * block whose source is a `waypoint-attachment:` URL naming the stored file by hash. Only the
 * request that goes out has the bytes, put in by `resolveAttachments` — so a log never holds
 * base64, and every later request sends the files again (as the API needs).
 */

export const ATTACHMENT_URL = 'waypoint-attachment:';

type RefFacts = Pick<Attachment, 'id' | 'name' | 'kind'> & Partial<Pick<Attachment, 'width' | 'height' | 'pages' | 'size'>>;

/**
 * `waypoint-attachment:HASH?kind=…&w=…&h=…&pages=…&bytes=…#NAME`: the query carries what the
 * request's token estimate needs (an image's pixels, a PDF's pages, a text's bytes) without
 * reading the store; references logged before it had no query and are sized by the API's maxima.
 */
const refUrl = (attachment: RefFacts): string => {
  const facts = new URLSearchParams({ kind: attachment.kind });
  if (attachment.width) facts.set('w', String(attachment.width));
  if (attachment.height) facts.set('h', String(attachment.height));
  if (attachment.pages) facts.set('pages', String(attachment.pages));
  if (attachment.size !== undefined) facts.set('bytes', String(attachment.size));
  return `${ATTACHMENT_URL}${attachment.id}?${facts.toString()}#${encodeURIComponent(attachment.name)}`;
};

/** What a reference says of its file, for estimating its tokens; null for a block that is no reference. */
export interface ReferenceFacts {
  kind?: Attachment['kind'];
  width?: number;
  height?: number;
  pages?: number;
  bytes?: number;
}

export function referenceFacts(block: { type: string; source?: unknown }): ReferenceFacts | null {
  if (block.type !== 'image' && block.type !== 'document') return null;
  const source = block.source as { type?: string; url?: string } | undefined;
  if (source?.type !== 'url' || !source.url?.startsWith(ATTACHMENT_URL)) return null;
  const query = /\?([^#]*)/.exec(source.url)?.[1] ?? '';
  const params = new URLSearchParams(query);
  const num = (key: string): number | undefined => {
    const n = Number(params.get(key) ?? NaN);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const kind = params.get('kind');
  return {
    ...(kind === 'image' || kind === 'pdf' || kind === 'text' ? { kind } : {}),
    ...(num('w') !== undefined ? { width: num('w') } : {}),
    ...(num('h') !== undefined ? { height: num('h') } : {}),
    ...(num('pages') !== undefined ? { pages: num('pages') } : {}),
    ...(num('bytes') !== undefined ? { bytes: num('bytes') } : {}),
  };
}

/** The block a message carries for one attachment. */
export function attachmentBlock(attachment: RefFacts): ImageBlockParam | DocumentBlockParam {
  if (attachment.kind === 'image') return { type: 'image', source: { type: 'url', url: refUrl(attachment) } };
  return { type: 'document', source: { type: 'url', url: refUrl(attachment) }, title: attachment.name };
}

interface Ref {
  id: string;
  name: string;
}

function refOf(block: { type: string; source?: unknown }): Ref | null {
  if (block.type !== 'image' && block.type !== 'document') return null;
  const source = block.source as { type?: string; url?: string } | undefined;
  if (source?.type !== 'url' || !source.url?.startsWith(ATTACHMENT_URL)) return null;
  const rest = source.url.slice(ATTACHMENT_URL.length);
  const hash = rest.indexOf('#');
  const head = hash === -1 ? rest : rest.slice(0, hash);
  const query = head.indexOf('?');
  // A history logged before names were cleaned at the boundary may hold any name: cleaned here too.
  return { id: query === -1 ? head : head.slice(0, query), name: hash === -1 ? 'attachment' : cleanFileName(safeDecode(rest.slice(hash + 1))) || 'attachment' };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Every attachment a history refers to, oldest first (tool results' images included). */
export function attachmentRefs(messages: readonly MessageParam[]): Ref[] {
  const refs: Ref[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      const ref = refOf(block);
      if (ref) refs.push(ref);
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const inner of block.content) {
          const innerRef = refOf(inner);
          if (innerRef) refs.push(innerRef);
        }
      }
    }
  }
  return refs;
}

export interface AttachmentSource {
  meta(id: string): Promise<StoredMeta | null>;
  base64(id: string): Promise<string | null>;
  read(id: string): Promise<Buffer | null>;
}

type Decision = { kind: 'send'; meta: StoredMeta } | { kind: 'omit'; why: string } | { kind: 'missing' };

/**
 * Which attachments a request can carry within the API's per-request limits (images, PDF pages,
 * bytes): the newest are kept, older ones beyond the limits become a short note. Pure, so the
 * same history always gives the same request (cache hits stay byte-identical).
 */
export function fitToRequest(entries: ReadonlyArray<{ meta: StoredMeta | null }>): Decision[] {
  let images = 0;
  let pages = 0;
  let bytes = 0;
  const decisions: Decision[] = new Array(entries.length);
  for (let i = entries.length - 1; i >= 0; i--) {
    const meta = entries[i]!.meta;
    if (!meta) {
      decisions[i] = { kind: 'missing' };
      continue;
    }
    const size = meta.kind === 'text' ? meta.size : Math.ceil(meta.size / 3) * 4;
    const nextImages = images + (meta.kind === 'image' ? 1 : 0);
    const nextPages = pages + (meta.kind === 'pdf' ? (meta.pages ?? 1) : 0);
    if (nextImages > ATTACHMENT_LIMITS.maxImagesPerRequest) decisions[i] = { kind: 'omit', why: `a request can carry at most ${ATTACHMENT_LIMITS.maxImagesPerRequest} images` };
    else if (nextPages > ATTACHMENT_LIMITS.maxPdfPagesPerRequest) decisions[i] = { kind: 'omit', why: `a request can carry at most ${ATTACHMENT_LIMITS.maxPdfPagesPerRequest} PDF pages` };
    else if (bytes + size > ATTACHMENT_LIMITS.attachmentBytesPerRequest) decisions[i] = { kind: 'omit', why: 'the request would pass the API’s size limit' };
    else {
      images = nextImages;
      pages = nextPages;
      bytes += size;
      decisions[i] = { kind: 'send', meta };
    }
  }
  return decisions;
}

/** The request with every attachment reference replaced by what the API takes. */
export async function resolveAttachments(request: MessageCreateParamsBase, source: AttachmentSource): Promise<MessageCreateParamsBase> {
  const refs = attachmentRefs(request.messages);
  if (refs.length === 0) return request;
  const metas = await Promise.all(refs.map((ref) => source.meta(ref.id)));
  const decisions = fitToRequest(metas.map((meta) => ({ meta })));
  let cursor = 0;
  const resolveBlock = async <B extends { type: string }>(block: B): Promise<B | ContentBlockParam> => {
    const ref = refOf(block);
    if (!ref) return block;
    const decision = decisions[cursor++]!;
    const cache = (block as { cache_control?: unknown }).cache_control;
    const withCache = <T extends object>(out: T): T => (cache ? { ...out, cache_control: cache } : out);
    if (decision.kind === 'omit') return withCache(note(`[Waypoint left out the earlier attachment "${ref.name}" here: ${decision.why}.]`));
    const data = decision.kind === 'send' ? (decision.meta.kind === 'text' ? await source.read(ref.id) : await source.base64(ref.id)) : null;
    if (decision.kind === 'missing' || data === null) {
      return withCache(note(`[The attachment "${ref.name}" could not be sent: its copy in Waypoint's data folder is missing or damaged.]`));
    }
    const meta = decision.meta;
    if (meta.kind === 'text') return withCache(note(frameTextFile(ref.name, ref.id, (data as Buffer).toString('utf8'))));
    if (meta.kind === 'pdf') {
      return withCache({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: data as string }, title: ref.name } satisfies DocumentBlockParam);
    }
    return withCache({ type: 'image', source: { type: 'base64', media_type: meta.mediaType as 'image/png', data: data as string } } satisfies ImageBlockParam);
  };
  const messages: MessageParam[] = [];
  for (const message of request.messages) {
    if (typeof message.content === 'string') {
      messages.push(message);
      continue;
    }
    const content: ContentBlockParam[] = [];
    for (const block of message.content) {
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        const inner: NonNullable<ToolResultBlockParam['content']> = [];
        for (const part of block.content) inner.push((await resolveBlock(part)) as (typeof inner)[number]);
        content.push({ ...block, content: inner });
      } else {
        content.push((await resolveBlock(block)) as ContentBlockParam);
      }
    }
    messages.push({ ...message, content } as MessageParam);
  }
  return { ...request, messages };
}

function note(text: string): TextBlockParam {
  return { type: 'text', text };
}

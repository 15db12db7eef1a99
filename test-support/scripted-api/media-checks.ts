import { PDFDocument } from 'pdf-lib';
import sharp, { type Metadata } from 'sharp';

/**
 * The API's checks on image and document blocks, with its messages: media types it takes, data
 * that is base64 and is what its media type says, the 5 MB per-image cap (on the base64), the
 * 8000 px (2000 px past 20 images) sides, 100 images and 100 PDF pages per request, and URL
 * sources that must be https (a `waypoint-attachment:` reference that was not filled in is a
 * client bug, and the API would refuse it).
 */

type Block = Record<string, unknown> & { type?: unknown };

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const FORMAT_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
const MAX_EDGE = 8000;
const MAX_EDGE_MANY = 2000;
const MAX_IMAGES = 100;
const MAX_PDF_PAGES = 100;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

interface Located {
  block: Block;
  where: string;
}

/** Every image and document block of the messages, tool results' content included. */
function mediaBlocks(messages: unknown[]): Located[] {
  const found: Located[] = [];
  for (const [i, m] of messages.entries()) {
    const content = (m as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (const [j, block] of (content as Block[]).entries()) {
      if (block?.type === 'image' || block?.type === 'document') found.push({ block, where: `messages.${i}.content.${j}` });
      if (block?.type === 'tool_result' && Array.isArray(block.content)) {
        for (const [k, inner] of (block.content as Block[]).entries()) {
          if (inner?.type === 'image' || inner?.type === 'document') found.push({ block: inner, where: `messages.${i}.content.${j}.content.${k}` });
        }
      }
    }
  }
  return found;
}

export async function checkMedia(body: Record<string, unknown>): Promise<string | null> {
  const blocks = mediaBlocks(Array.isArray(body.messages) ? body.messages : []);
  const images = blocks.filter((b) => b.block.type === 'image').length;
  if (images > MAX_IMAGES) return `messages: Too many images in the request: ${images} > ${MAX_IMAGES}.`;
  let pages = 0;
  for (const { block, where } of blocks) {
    const problem = block.type === 'image' ? await checkImage(block, where, images > 20) : await checkDocument(block, where, (n) => (pages += n));
    if (problem) return problem;
  }
  if (pages > MAX_PDF_PAGES) return `A maximum of ${MAX_PDF_PAGES} PDF pages may be provided.`;
  return null;
}

function checkUrlSource(source: Record<string, unknown>, where: string, kind: 'image' | 'document'): string | null {
  const url = typeof source.url === 'string' ? source.url : '';
  if (!/^https:\/\//.test(url)) return `${where}.${kind}.source.url: Only HTTPS URLs are supported; got "${url.slice(0, 60)}".`;
  return null;
}

async function checkImage(block: Block, where: string, many: boolean): Promise<string | null> {
  const source = (block.source ?? {}) as Record<string, unknown>;
  if (source.type === 'url') return checkUrlSource(source, where, 'image');
  if (source.type !== 'base64') return `${where}.image.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`;
  const mediaType = String(source.media_type);
  if (!IMAGE_TYPES.has(mediaType)) return `${where}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  const data = typeof source.data === 'string' ? source.data : '';
  if (!data || data.length % 4 !== 0 || !BASE64.test(data)) return `${where}.image.source.base64.data: The image data is not valid base64.`;
  if (data.length > MAX_IMAGE_BASE64) return `${where}.image.source.base64: image exceeds 5 MB maximum: ${data.length} bytes > ${MAX_IMAGE_BASE64} bytes`;
  let meta: Metadata;
  try {
    const bytes = Buffer.from(data, 'base64');
    meta = await sharp(bytes).metadata();
    await sharp(bytes, { failOn: 'error' }).raw().toBuffer();
  } catch {
    return `${where}.image.source.base64.data: Could not process image`;
  }
  const actual = meta.format ? FORMAT_TYPES[meta.format] : undefined;
  if (actual !== mediaType) {
    return `${where}.image.source.base64.data: The image was specified using the ${mediaType} media type, but the image appears to be a ${actual ?? `image/${meta.format ?? 'unknown'}`} image`;
  }
  const edge = Math.max(meta.width ?? 0, meta.height ?? 0);
  if (edge > MAX_EDGE) return `${where}.image.source.base64.data: At least one of the image dimensions exceed max allowed size: ${MAX_EDGE} pixels`;
  if (many && edge > MAX_EDGE_MANY) return `${where}.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: ${MAX_EDGE_MANY} pixels`;
  return null;
}

async function checkDocument(block: Block, where: string, addPages: (n: number) => void): Promise<string | null> {
  const source = (block.source ?? {}) as Record<string, unknown>;
  if (source.type === 'url') return checkUrlSource(source, where, 'document');
  if (source.type === 'text') {
    if (source.media_type !== 'text/plain') return `${where}.document.source.text.media_type: Input should be 'text/plain'`;
    return typeof source.data === 'string' ? null : `${where}.document.source.text.data: Field required`;
  }
  if (source.type !== 'base64') return `${where}.document.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'text', 'content', 'url', 'file'`;
  if (source.media_type !== 'application/pdf') return `${where}.document.source.base64.media_type: Input should be 'application/pdf'`;
  const data = typeof source.data === 'string' ? source.data : '';
  if (!data || data.length % 4 !== 0 || !BASE64.test(data)) return `${where}.document.source.base64.data: The PDF data is not valid base64.`;
  try {
    const document = await PDFDocument.load(Buffer.from(data, 'base64'), { updateMetadata: false });
    addPages(document.getPageCount());
  } catch {
    return `${where}.document.source.base64.data: The PDF specified was not valid.`;
  }
  return null;
}

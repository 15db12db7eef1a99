import { kindFromName, refusalByNameAndSize } from '../../shared/attachments';
import { AttachmentRefusal } from './attachment-refusal';
import { prepareImage } from './prepare-image';
import { preparePdf } from './prepare-pdf';
import { prepareText, textMediaType } from './prepare-text';
import type { StoredMeta } from './attachment-store';

/**
 * What a file is, decided from its bytes (its name only breaks ties and names the refusal): an
 * image, a PDF or text, made ready to send — or an AttachmentRefusal that names the file and why.
 */

export interface PreparedFile {
  bytes: Buffer;
  meta: StoredMeta;
}

type Sniffed = 'image' | 'pdf' | null;

export function sniff(bytes: Buffer): Sniffed {
  const head = bytes.subarray(0, 16);
  const ascii = head.toString('latin1');
  if (head[0] === 0x89 && ascii.startsWith('PNG', 1)) return 'image';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image';
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'image';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'image';
  if (bytes.subarray(0, 1024).indexOf('%PDF-') !== -1) return 'pdf';
  return null;
}

export async function prepareFile(name: string, bytes: Buffer): Promise<PreparedFile> {
  const refusal = refusalByNameAndSize(name, bytes.length);
  if (refusal) throw new AttachmentRefusal(refusal);
  const kind = sniff(bytes) ?? kindFromName(name);
  if (kind === 'image') return prepareImageFile(name, bytes);
  if (kind === 'pdf') {
    const { pages } = await preparePdf(name, bytes);
    return { bytes, meta: { kind: 'pdf', mediaType: 'application/pdf', size: bytes.length, pages } };
  }
  const text = prepareText(name, bytes);
  const out = Buffer.from(text, 'utf8');
  return { bytes: out, meta: { kind: 'text', mediaType: textMediaType(name), size: out.length } };
}

/** An image (attached, or returned by a tool) made ready to send and described for the store. */
export async function prepareImageFile(name: string, bytes: Buffer): Promise<PreparedFile> {
  const { bytes: out, mediaType, width, height, downscaledFrom } = await prepareImage(name, bytes);
  return { bytes: out, meta: { kind: 'image', mediaType, size: out.length, width, height, ...(downscaledFrom ? { downscaledFrom } : {}) } };
}

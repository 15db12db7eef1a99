import { ATTACHMENT_LIMITS } from '../../shared/attachments';
import { AttachmentRefusal } from './attachment-refusal';

/**
 * A text or code file: valid UTF-8 without NUL bytes (the way git and ripgrep tell text from
 * binary), within the length a typed message may have. Returns its text, BOM removed.
 */
export function prepareText(name: string, bytes: Buffer): string {
  if (bytes.includes(0)) throw new AttachmentRefusal(unsupported(name));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new AttachmentRefusal(unsupported(name));
  }
  if (text.length > ATTACHMENT_LIMITS.maxTextChars) {
    throw new AttachmentRefusal(
      `"${name}" has ${text.length.toLocaleString('en-US')} characters; a text file can have at most ${ATTACHMENT_LIMITS.maxTextChars.toLocaleString('en-US')}.`,
    );
  }
  if (text.trim() === '') throw new AttachmentRefusal(`"${name}" has no text in it.`);
  return text;
}

export function unsupported(name: string): string {
  return `"${name}" is not an image, a PDF or a text file, so Claude cannot read it. Attach images (PNG, JPEG, GIF, WebP), PDFs or text files.`;
}

/** A media type for a text file from its extension (what the export and the chip show). */
export function textMediaType(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const known: Record<string, string> = { md: 'text/markdown', csv: 'text/csv', json: 'application/json', html: 'text/html', xml: 'application/xml', svg: 'image/svg+xml' };
  return known[ext] ?? 'text/plain';
}

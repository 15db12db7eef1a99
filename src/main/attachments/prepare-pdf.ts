import { ATTACHMENT_LIMITS, formatBytes } from '../../shared/attachments';
import { AttachmentRefusal } from './attachment-refusal';

/**
 * A PDF checked the way the API will check it, with pdf-lib reading the document: it must open,
 * not be encrypted, have at most the pages the API reads per request, and fit (as base64) in
 * what a request may carry.
 */

/** The largest PDF whose base64 fits in a request beside the conversation. */
export const MAX_PDF_BYTES = Math.floor((ATTACHMENT_LIMITS.attachmentBytesPerRequest / 4) * 3);

export async function preparePdf(name: string, bytes: Buffer): Promise<{ pages: number }> {
  if (bytes.subarray(0, 1024).indexOf('%PDF-') === -1) throw new AttachmentRefusal(`"${name}" is not a PDF (it has no PDF header).`);
  if (bytes.length > MAX_PDF_BYTES) {
    throw new AttachmentRefusal(
      `"${name}" is ${formatBytes(bytes.length)}; a PDF can be at most ${formatBytes(MAX_PDF_BYTES)} to fit in one request to Claude (${formatBytes(ATTACHMENT_LIMITS.maxRequestBytes)}, base64 included).`,
    );
  }
  let pages: number;
  // pdf-lib is loaded with the first PDF, so the app starts without it.
  const { EncryptedPDFError, PDFDocument } = await import('pdf-lib');
  try {
    const document = await PDFDocument.load(bytes, { updateMetadata: false });
    pages = document.getPageCount();
  } catch (error) {
    if (error instanceof EncryptedPDFError) throw new AttachmentRefusal(`"${name}" is encrypted or password-protected; Claude can only read plain PDFs.`);
    throw new AttachmentRefusal(`"${name}" is a damaged PDF (${error instanceof Error ? error.message.slice(0, 160) : 'unreadable'}).`);
  }
  if (pages < 1) throw new AttachmentRefusal(`"${name}" has no pages.`);
  if (pages > ATTACHMENT_LIMITS.maxPdfPagesPerRequest) {
    throw new AttachmentRefusal(`"${name}" has ${pages} pages; Claude reads at most ${ATTACHMENT_LIMITS.maxPdfPagesPerRequest} pages of PDFs per request. Split it or attach the pages you need.`);
  }
  return { pages };
}

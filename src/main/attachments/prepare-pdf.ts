import type { PDFDocument } from 'pdf-lib';
import { ATTACHMENT_LIMITS, formatBytes } from '../../shared/attachments';
import { AttachmentRefusal } from './attachment-refusal';
import { limitUnpacking, namedEncryption, passedUnpackLimit, PdfUnpackLimitError } from './pdf-load-hooks';

/**
 * A PDF checked the way the API will check it, with pdf-lib reading the document: it must open,
 * not be encrypted, have at most the pages the API reads per request, and fit (as base64) in
 * what a request may carry. What pdf-lib unpacks while reading is capped (pdf-load-hooks.ts),
 * and the page tree is walked here, each node once, rather than by pdf-lib's recursion, which
 * follows a node named twice as often as it is named (a few objects can name millions of pages).
 */

/** The largest PDF whose base64 fits in a request beside the conversation. */
export const MAX_PDF_BYTES = Math.floor((ATTACHMENT_LIMITS.attachmentBytesPerRequest / 4) * 3);

type PdfLib = typeof import('pdf-lib');

export async function preparePdf(name: string, bytes: Buffer): Promise<{ pages: number }> {
  if (bytes.subarray(0, 1024).indexOf('%PDF-') === -1) throw new AttachmentRefusal(`"${name}" is not a PDF (it has no PDF header).`);
  if (bytes.length > MAX_PDF_BYTES) {
    throw new AttachmentRefusal(
      `"${name}" is ${formatBytes(bytes.length)}; a PDF can be at most ${formatBytes(MAX_PDF_BYTES)} to fit in one request to Claude (${formatBytes(ATTACHMENT_LIMITS.maxRequestBytes)}, base64 included).`,
    );
  }
  // pdf-lib is loaded with the first PDF, so the app starts without it.
  const lib = await import('pdf-lib');
  limitUnpacking(lib);
  let document: PDFDocument;
  try {
    // Encryption is judged below, by the trailer alone: pdf-lib's own test needs the dictionary to exist.
    document = await lib.PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  } catch (error) {
    if (error instanceof PdfUnpackLimitError) throw unpacksTooMuch(name, error);
    throw damaged(name, error instanceof Error ? error.message : 'unreadable');
  }
  if (passedUnpackLimit(document.context)) throw unpacksTooMuch(name, new PdfUnpackLimitError(ATTACHMENT_LIMITS.maxPdfUnpackedBytes));
  // A trailer that names /Encrypt is encrypted, even when the object it names is missing (a
  // reader that follows the trailer would try to decrypt, and Claude reads only plain PDFs), or
  // when a later cross-reference stream leaves it out (pdf-lib would forget it).
  if (namedEncryption(document.context)) {
    throw new AttachmentRefusal(`"${name}" is encrypted or password-protected; Claude can only read plain PDFs.`);
  }
  const pages = countPages(lib, document, name);
  if (pages < 1) throw new AttachmentRefusal(`"${name}" has no pages.`);
  if (pages > ATTACHMENT_LIMITS.maxPdfPagesPerRequest) {
    throw new AttachmentRefusal(`"${name}" has ${pages} pages; Claude reads at most ${ATTACHMENT_LIMITS.maxPdfPagesPerRequest} pages of PDFs per request. Split it or attach the pages you need.`);
  }
  return { pages };
}

/** The page tree's leaves, each node visited once: a node named twice, or a loop, is damage. */
function countPages(lib: PdfLib, document: PDFDocument, name: string): number {
  const { PDFArray, PDFDict, PDFName, PDFRef } = lib;
  const context = document.context;
  // pdf-lib leaves the catalog undefined when the trailer's /Root names nothing it could read.
  const catalog = document.catalog as PDFDocument['catalog'] | undefined;
  if (!(catalog instanceof PDFDict)) throw damaged(name, 'it has no catalog');
  const root = catalog.get(PDFName.of('Pages'));
  if (!root) throw damaged(name, 'it has no page tree');
  const seen = new Set<unknown>();
  const todo: unknown[] = [root];
  let pages = 0;
  while (todo.length > 0) {
    const entry = todo.pop();
    const node = entry instanceof PDFRef ? context.lookup(entry) : entry;
    if (!(node instanceof PDFDict)) throw damaged(name, 'its page tree names something that is not a page');
    if (seen.has(node)) throw damaged(name, 'its page tree names the same page or branch twice');
    seen.add(node);
    const kids = node.lookup(PDFName.of('Kids'));
    const type = node.lookup(PDFName.of('Type'));
    if (kids instanceof PDFArray) {
      for (let i = kids.size() - 1; i >= 0; i--) todo.push(kids.get(i));
    } else if (type === PDFName.of('Page')) {
      pages++;
    } else {
      throw damaged(name, 'its page tree has a branch without pages');
    }
  }
  return pages;
}

function unpacksTooMuch(name: string, error: PdfUnpackLimitError): AttachmentRefusal {
  return new AttachmentRefusal(`"${name}" cannot be opened safely: ${error.message}.`);
}

function damaged(name: string, why: string): AttachmentRefusal {
  return new AttachmentRefusal(`"${name}" is a damaged PDF (${why.slice(0, 160)}).`);
}

import { constants, inflateSync } from 'node:zlib';
import type { PDFContext, PDFRawStream } from 'pdf-lib';
import { ATTACHMENT_LIMITS, formatBytes } from '../../shared/attachments';

/**
 * Hooks on pdf-lib's reading of a document (encryption below). pdf-lib unpacks every object stream (/Type /ObjStm) and cross-reference stream (/Type /XRef)
 * while it loads a document, whole and with no cap: a 1 MB file can unpack to 1 GB. Before
 * pdf-lib unpacks one, this measures what it unpacks to, with a cap, and refuses the document
 * once all of them together pass `ATTACHMENT_LIMITS.maxPdfUnpackedBytes` (passedUnpackLimit). It hooks the two
 * parsers' `forStream`, the one place pdf-lib (1.17, pinned) hands them a stream, so it sees
 * exactly the streams pdf-lib would unpack, however their /Type is written.
 */

export class PdfUnpackLimitError extends Error {
  constructor(readonly limit: number) {
    super(`its compressed streams unpack to more than ${formatBytes(limit)}`);
  }
}

interface StreamParser {
  forStream: (stream: PDFRawStream, ...rest: never[]) => unknown;
}

type PdfLib = typeof import('pdf-lib');

const hooked = new WeakSet<StreamParser>();
/** Bytes left per document being read (one PDFContext each). */
const left = new WeakMap<PDFContext, number>();
/**
 * Documents that passed the limit. pdf-lib catches what a stream's parse throws and reads on
 * (it recovers damaged objects that way), so the refusal is remembered here and asked for after
 * the load; every later stream of that document is refused at once, with nothing unpacked.
 */
const over = new WeakSet<PDFContext>();

/**
 * Documents where some trailer named /Encrypt. pdf-lib keeps one trailer: a cross-reference
 * stream replaces what earlier trailers said (an /Encrypt included), so each is noted here as
 * pdf-lib reaches it.
 */
const encryptNamed = new WeakSet<PDFContext>();

/** Whether any trailer of the document read in `context` named /Encrypt, even if a later one dropped it. */
export function namedEncryption(context: PDFContext): boolean {
  return encryptNamed.has(context) || context.trailerInfo.Encrypt !== undefined;
}

/** Whether the document being read in `context` unpacked past the limit (the load must then be refused). */
export function passedUnpackLimit(context: PDFContext): boolean {
  return over.has(context);
}

/** Hooks pdf-lib's object- and cross-reference-stream parsers; calling it again changes nothing. */
export function limitUnpacking(lib: PdfLib): void {
  for (const parser of [lib.PDFObjectStreamParser, lib.PDFXRefStreamParser] as unknown as StreamParser[]) {
    if (hooked.has(parser)) continue;
    const original = parser.forStream;
    parser.forStream = function (stream, ...rest) {
      const context = stream.dict.context;
      if (context.trailerInfo.Encrypt !== undefined || stream.dict.get(lib.PDFName.of('Encrypt')) !== undefined) encryptNamed.add(context);
      spend(lib, stream);
      return original.call(this, stream, ...rest);
    };
    hooked.add(parser);
  }
}

function spend(lib: PdfLib, stream: PDFRawStream): void {
  const limit = ATTACHMENT_LIMITS.maxPdfUnpackedBytes;
  const context = stream.dict.context;
  if (over.has(context)) throw new PdfUnpackLimitError(limit);
  const budget = left.get(context) ?? limit;
  const size = unpackedSize(lib, stream, budget);
  if (size > budget) {
    over.add(context);
    throw new PdfUnpackLimitError(limit);
  }
  left.set(context, budget - size);
}

/** What the stream unpacks to, counted only up to `cap` + 1 bytes: memory stays within the cap. */
function unpackedSize(lib: PdfLib, stream: PDFRawStream, cap: number): number {
  const filter = stream.dict.lookup(lib.PDFName.of('Filter'));
  const flateOnly =
    filter === lib.PDFName.of('FlateDecode') || (filter instanceof lib.PDFArray && filter.size() === 1 && filter.lookup(0) === lib.PDFName.of('FlateDecode'));
  if (flateOnly) {
    try {
      // zlib stops at maxOutputLength with a RangeError; a stream cut short still counts what it has.
      return inflateSync(stream.contents, { maxOutputLength: cap + 1, finishFlush: constants.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if (error instanceof RangeError) return cap + 1;
      // zlib is stricter than pdf-lib about damaged data: count it the way pdf-lib reads it.
    }
  }
  // Any other filter chain (LZW, RunLength, ASCII85…): pdf-lib's own decoders, read in pieces.
  const decoded = lib.decodePDFRawStream(stream);
  let size = 0;
  for (;;) {
    const piece = decoded.getBytes(1024 * 1024);
    if (piece.length === 0) return size;
    size += piece.length;
    if (size > cap) return size;
  }
}

import { once } from 'node:events';
import { createDeflate } from 'node:zlib';

/**
 * Hostile files built byte by byte for the attachment checks: PDFs whose compressed streams
 * unpack to far more than the file, whose trailer points at encryption that is not there, or
 * whose page tree loops; GIFs that declare a huge screen or thousands of frames in a few bytes.
 */

/** A PDF from its numbered objects (each the text between "N 0 obj" and "endobj") and trailer. */
export function pdfOf(objects: ReadonlyArray<string | Buffer>, trailer: string): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(at);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    at += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** A stream object's text around its (already encoded) bytes. */
export function streamObject(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
}

const ONE_PAGE = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>'];

/** Zeros deflated at the best ratio zlib has (about 1000:1), fed in pieces so building it never holds the whole. */
export async function deflatedZeros(head: string, totalBytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const piece = Buffer.alloc(64 * 1024 * 1024);
  deflate.write(Buffer.from(head, 'latin1'));
  for (let left = totalBytes; left > 0; left -= piece.length) {
    if (!deflate.write(left >= piece.length ? piece : piece.subarray(0, left))) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat(out);
}

/** A one-page PDF with an object stream (/Type /ObjStm) that unpacks to `unpackedBytes`. */
export async function objectStreamBomb(unpackedBytes: number): Promise<Buffer> {
  const data = await deflatedZeros('5 0 null ', unpackedBytes);
  return pdfOf([...ONE_PAGE, streamObject('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', data)], '/Root 1 0 R');
}

/** A one-page PDF whose cross-reference stream (/Type /XRef) unpacks to `unpackedBytes`. */
export async function xrefStreamBomb(unpackedBytes: number): Promise<Buffer> {
  const data = await deflatedZeros('', unpackedBytes);
  return pdfOf([...ONE_PAGE, streamObject('/Type /XRef /Size 5 /W [1 2 1] /Root 1 0 R /Filter /FlateDecode', data)], '/Root 1 0 R');
}

/** A plain one-page PDF whose trailer names encryption at an object that does not exist. */
export function danglingEncryptPdf(): Buffer {
  return pdfOf(ONE_PAGE, '/Root 1 0 R /Encrypt 99 0 R');
}

/**
 * A plain PDF whose first trailer names encryption, then an update whose cross-reference stream
 * does not: pdf-lib keeps only the last trailer it reads.
 */
export function encryptDroppedByXrefStreamPdf(): Buffer {
  const first = pdfOf(ONE_PAGE, '/Root 1 0 R /Encrypt 99 0 R');
  const xref = streamObject('/Type /XRef /Size 5 /W [1 2 1] /Root 1 0 R', Buffer.alloc(0));
  return Buffer.concat([first, Buffer.from('4 0 obj\n', 'latin1'), xref, Buffer.from(`\nendobj\nstartxref\n${first.length}\n%%EOF\n`, 'latin1')]);
}

/** A page tree that names the same subtree again and again: n levels of `fanOut` kids each. */
export function repeatedPageTreePdf(levels: number, fanOut: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < levels; level++) {
    const self = objects.length + 1;
    const kids = Array.from({ length: fanOut }, () => `${self + 1} 0 R`).join(' ');
    objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${fanOut} >>`);
  }
  objects.push(`<< /Type /Page /Parent ${objects.length} 0 R /MediaBox [0 0 100 100] >>`);
  return pdfOf(objects, '/Root 1 0 R');
}

/** A page tree whose kid is its own parent. */
export function loopingPageTreePdf(): Buffer {
  return pdfOf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>'], '/Root 1 0 R');
}

/** A PDF of many tiny objects: legitimate, but slow for pdf-lib to read. */
export function manyObjectsPdf(count: number): Buffer {
  const objects = [...ONE_PAGE];
  for (let i = 0; i < count; i++) objects.push(`<< /N ${i} /A [1 2 3] >>`);
  return pdfOf(objects, '/Root 1 0 R');
}

const u16 = (n: number) => [n & 0xff, n >> 8];

/**
 * A GIF whose screen is width×height and whose `frames` frames each cover it, with almost no
 * image data (a decoder fills the rest): a few dozen bytes that decode to width×height×4 bytes.
 */
export function hugeScreenGif(width: number, height: number, frames = 1): Buffer {
  const head = [...Buffer.from('GIF89a', 'latin1'), ...u16(width), ...u16(height), 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff];
  const frame = [0x2c, ...u16(0), ...u16(0), ...u16(width), ...u16(height), 0, 2, 2, 0x44, 0x01, 0];
  return Buffer.from([...head, ...Array.from({ length: frames }, () => frame).flat(), 0x3b]);
}

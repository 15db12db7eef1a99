import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { danglingEncryptPdf, encryptDroppedByXrefStreamPdf, loopingPageTreePdf, pdfOf, repeatedPageTreePdf, streamObject } from '../../../test-support/attachments/hostile-files';
import { ATTACHMENT_LIMITS } from '../../shared/attachments';
import { AttachmentRefusal } from './attachment-refusal';
import { prepareFile } from './prepare-file';

// Every kind of file as main judges it from its bytes: real images made with sharp, real PDFs
// made with pdf-lib, text, and whatever else a user might drop.

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp', width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#884422' } }).toFormat(format).toBuffer();

describe('prepareFile', () => {
  it('takes PNG, JPEG, GIF and WebP as they are when they fit, by content not by name', async () => {
    for (const format of ['png', 'jpeg', 'gif', 'webp'] as const) {
      const bytes = await image(format, 300, 200);
      const prepared = await prepareFile(`picture.${format === 'jpeg' ? 'dat' : format}`, bytes);
      expect(prepared.meta).toMatchObject({ kind: 'image', mediaType: `image/${format}`, width: 300, height: 200 });
      expect(prepared.bytes).toBe(bytes);
    }
  });

  it('scales a large image down to the size the API works at, keeping its shape', { timeout: 60_000 }, async () => {
    const prepared = await prepareFile('scan.jpg', await image('jpeg', 9000, 3000));
    expect(prepared.meta).toMatchObject({ kind: 'image', mediaType: 'image/jpeg', width: 1568, height: 523, downscaledFrom: { width: 9000, height: 3000 } });
    const meta = await sharp(prepared.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([1568, 523]);
  });

  it('re-encodes an image whose base64 would pass 5 MB', { timeout: 60_000 }, async () => {
    const noisy = await sharp(randomBytes(1300 * 1200 * 3), { raw: { width: 1300, height: 1200, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
    expect(Math.ceil(noisy.length / 3) * 4).toBeGreaterThan(ATTACHMENT_LIMITS.maxImageBase64Chars);
    const prepared = await prepareFile('noise.png', noisy);
    expect(Math.ceil(prepared.bytes.length / 3) * 4).toBeLessThanOrEqual(ATTACHMENT_LIMITS.maxImageBase64Chars);
    expect(prepared.meta).toMatchObject({ mediaType: 'image/jpeg', width: 1300, height: 1200, downscaledFrom: { width: 1300, height: 1200 } });
  });

  it('refuses a damaged PNG, an image type Claude does not take, and a non-image named .png', async () => {
    const png = await image('png', 200, 200);
    await expect(prepareFile('cut.png', png.subarray(0, png.length - 50))).rejects.toThrow(/"cut.png" is damaged/);
    await expect(prepareFile('photo.tiff.png', await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).tiff().toBuffer())).rejects.toThrow(/TIFF image; Claude takes PNG, JPEG, GIF and WebP/);
    await expect(prepareFile('fake.png', Buffer.from('hello'))).rejects.toThrow(/not an image Waypoint can read/);
  });

  it('counts a PDF’s pages and refuses one with more than the API reads, or one that is damaged', async () => {
    const doc = async (pages: number) => {
      const d = await PDFDocument.create();
      for (let i = 0; i < pages; i++) d.addPage([100, 100]);
      return Buffer.from(await d.save());
    };
    expect((await prepareFile('a.pdf', await doc(100))).meta).toMatchObject({ kind: 'pdf', pages: 100, mediaType: 'application/pdf' });
    await expect(prepareFile('long.pdf', await doc(500))).rejects.toThrow(/"long.pdf" has 500 pages; Claude reads at most 100/);
    await expect(prepareFile('broken.pdf', Buffer.from('%PDF-1.7\nnothing else'))).rejects.toThrow(/"broken.pdf" is a damaged PDF/);
    await expect(prepareFile('notes.pdf', Buffer.from('not a pdf at all'))).rejects.toThrow(/not a PDF/);
  });

  it('reads a PDF saved with object streams, and refuses one whose streams unpack past the cap whatever their filter', { timeout: 30_000 }, async () => {
    const d = await PDFDocument.create();
    for (let i = 0; i < 3; i++) d.addPage([100, 100]);
    // pdf-lib saves with object and cross-reference streams: the unpacking cap counts them and lets them through.
    expect((await prepareFile('streams.pdf', Buffer.from(await d.save({ useObjectStreams: true })))).meta).toMatchObject({ kind: 'pdf', pages: 3 });
    // RunLength: 2 bytes say 128 zeros, so 0.6 MB of them unpack to 38 MB, past the 32 MB cap.
    const runs = Buffer.alloc(0.6 * 1024 * 1024);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 129;
    const pages = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>'];
    const runLength = pdfOf([...pages, streamObject('/Type /ObjStm /N 1 /First 4 /Filter /RunLengthDecode', runs)], '/Root 1 0 R');
    await expect(prepareFile('runs.pdf', runLength)).rejects.toThrow('"runs.pdf" cannot be opened safely: its compressed streams unpack to more than 32 MB.');
    // An object whose /Type is a reference to the name /ObjStm is an object stream to pdf-lib too.
    const viaReference = pdfOf([...pages, '/ObjStm', streamObject('/Type 4 0 R /N 1 /First 4 /Filter /RunLengthDecode', runs)], '/Root 1 0 R');
    await expect(prepareFile('indirect.pdf', viaReference)).rejects.toThrow(/"indirect.pdf" cannot be opened safely/);
  });

  it('refuses a PDF whose trailer names encryption even when that object is missing', async () => {
    await expect(prepareFile('locked.pdf', danglingEncryptPdf())).rejects.toThrow('"locked.pdf" is encrypted or password-protected; Claude can only read plain PDFs.');
    // …or when a later cross-reference stream leaves it out (pdf-lib keeps only the last trailer).
    await expect(prepareFile('updated.pdf', encryptDroppedByXrefStreamPdf())).rejects.toThrow('"updated.pdf" is encrypted or password-protected; Claude can only read plain PDFs.');
  });

  it('walks the page tree once per node: a branch named twice or a loop is damage, not millions of pages', async () => {
    // 20 levels of 20 kids that are all the same branch: pdf-lib's own count would visit 20^20 leaves.
    await expect(prepareFile('fan.pdf', repeatedPageTreePdf(20, 20))).rejects.toThrow('"fan.pdf" is a damaged PDF (its page tree names the same page or branch twice).');
    await expect(prepareFile('loop.pdf', loopingPageTreePdf())).rejects.toThrow('"loop.pdf" is a damaged PDF (its page tree names the same page or branch twice).');
  });

  it('takes UTF-8 text and code, and refuses binaries whatever their name', async () => {
    expect((await prepareFile('main.rs', Buffer.from('fn main() { println!("hé"); }'))).meta).toMatchObject({ kind: 'text', mediaType: 'text/plain' });
    expect((await prepareFile('data.csv', Buffer.from('a,b\n1,2'))).meta.mediaType).toBe('text/csv');
    await expect(prepareFile('program', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03]))).rejects.toThrow(/"program" is not an image, a PDF or a text file/);
    await expect(prepareFile('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]))).rejects.toThrow(/not an image, a PDF or a text file/);
    await expect(prepareFile('huge.log', Buffer.alloc(ATTACHMENT_LIMITS.maxTextChars + 1, 'a'))).rejects.toThrow(/a text file can have at most 500,000/);
    await expect(prepareFile('setup.exe', Buffer.from('MZ'))).rejects.toThrow(/\.exe file, which Claude cannot read/);
  });

  it('never fails on arbitrary bytes other than with a refusal that names the file', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('x.png', 'x.pdf', 'x.txt', 'x', 'x.gif'), fc.uint8Array({ minLength: 1, maxLength: 400 }), async (name, bytes) => {
        try {
          const prepared = await prepareFile(name, Buffer.from(bytes));
          expect(['image', 'pdf', 'text']).toContain(prepared.meta.kind);
        } catch (error) {
          expect(error).toBeInstanceOf(AttachmentRefusal);
          expect((error as Error).message).toContain(`"${name}"`);
        }
      }),
      { numRuns: 150 },
    );
  });
});

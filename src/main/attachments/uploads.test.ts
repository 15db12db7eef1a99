import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS } from '../../shared/attachments';
import { MAX_OPEN_UPLOADS, UPLOAD_TTL_MS, Uploads } from './uploads';

// Uploads in pieces: any split of a file in order gives back the same bytes; out-of-order,
// oversized or extra pieces are refused; unfinished uploads are bounded in number and time.
describe('Uploads', () => {
  it('reassembles any in-order split of a file exactly', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 5000 }), fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 20 }), (bytes, cuts) => {
        const uploads = new Uploads();
        const { uploadId } = uploads.start('f.bin.txt', bytes.length);
        let offset = 0;
        for (const cut of [...cuts, bytes.length]) {
          if (offset >= bytes.length) break;
          const piece = bytes.subarray(offset, Math.min(bytes.length, offset + cut));
          expect(uploads.chunk(uploadId, offset, Buffer.from(piece).toString('base64')).received).toBe(offset + piece.length);
          offset += piece.length;
        }
        const { bytes: back } = uploads.take(uploadId);
        expect(Buffer.compare(back, Buffer.from(bytes))).toBe(0);
        expect(uploads.count).toBe(0);
      }),
    );
  });

  it('refuses a piece out of order or past the announced size, and an unfinished take', () => {
    const uploads = new Uploads();
    const { uploadId } = uploads.start('a.txt', 6);
    expect(() => uploads.chunk(uploadId, 3, 'YWJj')).toThrow(/arrived for byte 3, but 0 bytes have come/);
    uploads.chunk(uploadId, 0, 'YWJj');
    expect(() => uploads.take(uploadId)).toThrow(/incomplete \(3 of 6 bytes/);
    const second = uploads.start('b.txt', 2).uploadId;
    expect(() => uploads.chunk(second, 0, 'YWJj')).toThrow(/more bytes than the 2 it announced/);
    expect(() => uploads.chunk(second, 0, 'YQ==')).toThrow(/unknown/);
  });

  it('refuses by name and size before any byte, and bounds what is open at once and for how long', () => {
    let now = 0;
    const uploads = new Uploads(() => now);
    expect(() => uploads.start('virus.exe', 10)).toThrow(/Claude cannot read/);
    expect(() => uploads.start('big.mov.txt', ATTACHMENT_LIMITS.maxFileBytes + 1)).toThrow(/the limit is 30 MB/);
    for (let i = 0; i < MAX_OPEN_UPLOADS; i++) uploads.start(`f${i}.txt`, 10);
    expect(() => uploads.start('one-more.txt', 10)).toThrow(/Too many files are uploading at once/);
    now += UPLOAD_TTL_MS + 1;
    expect(uploads.start('later.txt', 10).uploadId).toBeTruthy();
    expect(uploads.count).toBe(1);
  });
});

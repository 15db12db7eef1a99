import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS } from '../../shared/attachments';
import { MAX_OPEN_UPLOAD_BYTES, MAX_OPEN_UPLOADS, MAX_UPLOADS_PER_CLIENT, UPLOAD_IDLE_MS, Uploads } from './uploads';

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

  it('refuses by name and size before any byte', () => {
    const uploads = new Uploads();
    expect(() => uploads.start('virus.exe', 10)).toThrow(/Claude cannot read/);
    expect(() => uploads.start('big.mov.txt', ATTACHMENT_LIMITS.maxFileBytes + 1)).toThrow(/the limit is 30 MB/);
    expect(uploads.count).toBe(0);
  });

  // Issue 21, item 5: uploads abandoned by a client that went away must not lock the user out.
  it(`${MAX_OPEN_UPLOADS} abandoned uploads do not block the next one: the least recently active makes room`, () => {
    let now = 0;
    const uploads = new Uploads(() => now);
    const abandoned = Array.from({ length: MAX_OPEN_UPLOADS }, (_, i) => {
      now += 1;
      return uploads.start(`f${i}.txt`, 10).uploadId;
    });
    now += 1;
    const fresh = uploads.start('wanted.txt', 3).uploadId;
    expect(uploads.count).toBe(MAX_OPEN_UPLOADS);
    expect(() => uploads.chunk(abandoned[0]!, 0, 'YWJj')).toThrow(/Attach the file again/);
    uploads.chunk(fresh, 0, 'YWJj');
    expect(uploads.take(fresh).bytes.toString()).toBe('abc');
    // One still sending pieces is the most recently active, so it is the last to go.
    uploads.chunk(abandoned[1]!, 0, 'YWJj');
    for (let i = 0; i < MAX_OPEN_UPLOADS - 1; i++) uploads.start(`more${i}.txt`, 10);
    expect(uploads.chunk(abandoned[1]!, 3, 'YWJj').received).toBe(6);
  });

  it('abandoned large uploads make room by bytes too', () => {
    let now = 0;
    const uploads = new Uploads(() => now);
    const big = ATTACHMENT_LIMITS.maxFileBytes;
    const held = Math.floor(MAX_OPEN_UPLOAD_BYTES / big);
    const first = uploads.start('big0.txt', big).uploadId;
    for (let i = 1; i < held; i++) uploads.start(`big${i}.txt`, big);
    now += 1;
    expect(uploads.start('one-more.txt', big).uploadId).toBeTruthy();
    expect(() => uploads.chunk(first, 0, 'YWJj')).toThrow(/Attach the file again/);
    expect(uploads.count).toBe(held);
  });

  it(`an upload no piece reached for ${UPLOAD_IDLE_MS / 60_000} minutes is dropped; one that keeps sending is not`, () => {
    let now = 0;
    const uploads = new Uploads(() => now);
    const idle = uploads.start('idle.txt', 10).uploadId;
    const busy = uploads.start('busy.txt', 10).uploadId;
    expect(UPLOAD_IDLE_MS).toBeLessThanOrEqual(2 * 60_000);
    now += UPLOAD_IDLE_MS - 1;
    uploads.chunk(busy, 0, 'YWJj');
    now += 2;
    expect(() => uploads.chunk(idle, 0, 'YWJj')).toThrow(/no piece came for 2 minutes/);
    expect(uploads.chunk(busy, 3, 'YWJj').received).toBe(6);
    expect(uploads.count).toBe(1);
  });
});

// Issue 21, item 5: the uploads a client started go when that client goes (the web shell's
// socket closes), and one client's abandoned uploads make room among themselves first.
describe('Uploads per client', () => {
  it('a client that goes takes its unfinished uploads with it; other clients keep theirs', () => {
    const uploads = new Uploads();
    const gone = [uploads.start('a1.txt', 3, 'tab-a').uploadId, uploads.start('a2.txt', 3, 'tab-a').uploadId];
    const kept = uploads.start('b.txt', 3, 'tab-b').uploadId;
    const local = uploads.start('c.txt', 3).uploadId;
    uploads.clientGone('tab-a');
    for (const id of gone) expect(() => uploads.chunk(id, 0, 'YWJj')).toThrow(/Attach the file again/);
    expect(uploads.chunk(kept, 0, 'YWJj').received).toBe(3);
    expect(uploads.chunk(local, 0, 'YWJj').received).toBe(3);
    expect(uploads.count).toBe(2);
  });

  it(`a client past ${MAX_UPLOADS_PER_CLIENT} unfinished uploads makes room from its own, not another's`, () => {
    let now = 0;
    const uploads = new Uploads(() => now);
    const other = uploads.start('other.txt', 3, 'tab-b').uploadId;
    const own = Array.from({ length: MAX_UPLOADS_PER_CLIENT + 1 }, (_, i) => {
      now += 1;
      return uploads.start(`a${i}.txt`, 3, 'tab-a').uploadId;
    });
    expect(() => uploads.chunk(own[0]!, 0, 'YWJj')).toThrow(/Attach the file again/);
    for (const id of own.slice(1)) expect(uploads.chunk(id, 0, 'YWJj').received).toBe(3);
    expect(uploads.chunk(other, 0, 'YWJj').received).toBe(3);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS, formatBytes, kindFromName, messageAttachmentsProblem, refusalByNameAndSize, AttachmentRef, uploadCalls } from './attachments';

// The checks both the renderer (before any byte moves) and main (again) make about attachments.
const name = fc.stringMatching(/^[a-zA-Z0-9 _-]{1,20}$/);
const ext = fc.constantFrom('png', 'jpg', 'jpeg', 'gif', 'webp', 'pdf', 'txt', 'md', 'ts', 'json', 'csv', '');

describe('refusalByNameAndSize', () => {
  it('refuses every file over the per-file limit, naming it and both sizes', () => {
    fc.assert(
      fc.property(name, ext, fc.integer({ min: ATTACHMENT_LIMITS.maxFileBytes + 1, max: 2 ** 40 }), (base, e, size) => {
        const file = e ? `${base}.${e}` : base;
        const refusal = refusalByNameAndSize(file, size);
        expect(refusal).toContain(`"${file}"`);
        expect(refusal).toContain('the limit is 30 MB per file');
      }),
    );
  });

  it('refuses executables and other binaries by name, and allows what may be an image, a PDF or text', () => {
    fc.assert(
      fc.property(name, fc.constantFrom('exe', 'EXE', 'dll', 'zip', 'docx', 'mp4', 'bmp'), fc.integer({ min: 1, max: 1000 }), (base, e, size) => {
        expect(refusalByNameAndSize(`${base}.${e}`, size)).toMatch(/Claude cannot read/);
      }),
    );
    fc.assert(
      fc.property(name, ext, fc.integer({ min: 1, max: ATTACHMENT_LIMITS.maxFileBytes }), (base, e, size) => {
        expect(refusalByNameAndSize(e ? `${base}.${e}` : base, size)).toBeNull();
      }),
    );
    expect(refusalByNameAndSize('empty.txt', 0)).toBe('"empty.txt" is empty.');
  });

  it('tells images and PDFs by extension, case aside', () => {
    expect(['a.PNG', 'b.jpeg', 'c.Gif', 'd.webp'].map(kindFromName)).toEqual(['image', 'image', 'image', 'image']);
    expect(kindFromName('x.PDF')).toBe('pdf');
    expect(kindFromName('x.ts')).toBeNull();
  });
});

describe('messageAttachmentsProblem', () => {
  const file = fc.record({
    name,
    kind: fc.constantFrom('image' as const, 'pdf' as const, 'text' as const),
    pages: fc.integer({ min: 1, max: 60 }),
    size: fc.integer({ min: 1, max: 3_000_000 }),
  });

  it('accepts a set within every limit and refuses one past any, saying which', () => {
    fc.assert(
      fc.property(fc.array(file, { maxLength: 30 }), (files) => {
        const images = files.filter((f) => f.kind === 'image').length;
        const pages = files.reduce((n, f) => n + (f.kind === 'pdf' ? f.pages : 0), 0);
        const bytes = files.reduce((n, f) => n + (f.kind === 'text' ? f.size : Math.ceil(f.size / 3) * 4), 0);
        const problem = messageAttachmentsProblem(files);
        const within = images <= 20 && files.length <= 20 && pages <= 100 && bytes <= ATTACHMENT_LIMITS.attachmentBytesPerRequest;
        expect(problem === null).toBe(within);
        if (images > 20) expect(problem).toContain(`${images} images are attached; at most 20`);
      }),
    );
  });

  it('a large picked image counts as what it is sent as: scaled down to the API cap, not its own size (issue 23)', () => {
    // A 23 MB 3200×2400 PNG, before its upload: main scales it to fit 5 MB of base64.
    expect(messageAttachmentsProblem([{ name: 'screen.png', kind: 'image', size: 23 * 1024 * 1024 }])).toBeNull();
    const five = Array.from({ length: 5 }, (_, i) => ({ name: `big-${i}.png`, kind: 'image' as const, size: 23 * 1024 * 1024 }));
    expect(messageAttachmentsProblem(five)).toMatch(/come to 25 MB as sent/);
    expect(messageAttachmentsProblem([{ name: 'scan.pdf', kind: 'pdf', size: 23 * 1024 * 1024 }])).toMatch(/come to 30.7 MB as sent/);
  });

  it('30 images in one message are refused', () => {
    const thirty = Array.from({ length: 30 }, (_, i) => ({ name: `shot-${i}.png`, kind: 'image' as const, size: 1000 }));
    expect(messageAttachmentsProblem(thirty)).toBe('30 images are attached; at most 20 can go with one message. Remove some, starting with "shot-29.png".');
  });
});

describe('the upload calls validate and bound every payload', () => {
  it('a piece is base64 of at most a chunk, and nothing else', () => {
    const piece = uploadCalls.uploadChunk.input;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 3000 }), (bytes) => {
        expect(piece.safeParse({ uploadId: 'u', offset: 0, data: Buffer.from(bytes).toString('base64') }).success).toBe(true);
      }),
    );
    expect(piece.safeParse({ uploadId: 'u', offset: 0, data: 'A'.repeat(Math.ceil(ATTACHMENT_LIMITS.uploadChunkBytes / 3) * 4 + 4) }).success).toBe(false);
    expect(piece.safeParse({ uploadId: 'u', offset: 0, data: 'not base64!' }).success).toBe(false);
    expect(piece.safeParse({ uploadId: 'u', offset: -1, data: 'AAAA' }).success).toBe(false);
    expect(piece.safeParse({ uploadId: 'u', offset: 0, data: 'AAAA', extra: 1 }).success).toBe(false);
  });

  it('a reference names a stored file by its sha-256 and a name', () => {
    expect(AttachmentRef.safeParse({ id: 'a'.repeat(64), name: 'x.png' }).success).toBe(true);
    expect(AttachmentRef.safeParse({ id: '../../etc/passwd', name: 'x.png' }).success).toBe(false);
    expect(AttachmentRef.safeParse({ id: 'a'.repeat(64), name: ' ' }).success).toBe(false);
  });

  it('sizes read well', () => {
    expect([10, 2048, 40 * 1024 * 1024, 1.5 * 1024 * 1024].map(formatBytes)).toEqual(['10 bytes', '2 KB', '40 MB', '1.5 MB']);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AttachmentRef, uploadCalls } from './attachments';
import { cleanFileName } from './attachment-names';

// Issue 21, item 2: a file's name reaches the chip, Claude and the export, so the name that
// crosses the boundary has no control characters, no line breaks and no bidi overrides.
const RLO = '\u202E';
const start = (name: string) => uploadCalls.startUpload.input.safeParse({ name, size: 10, mediaType: '' });

describe('file names at the upload boundary', () => {
  it('the RLO trick is undone: "invoice\\u202Efdp.txt" arrives as written, without the override', () => {
    const parsed = start(`invoice${RLO}fdp.txt`);
    expect(parsed.success && parsed.data.name).toBe('invoicefdp.txt');
  });

  it('newlines, tabs, C0 and C1 controls become one space; isolates and embeddings go', () => {
    const parsed = start('a\n</file>\r\nb\u0000c\u0085d\u2028e\u2066f\u2069\u202Ag\u202C\u200Fh.txt');
    expect(parsed.success && parsed.data.name).toBe('a </file> b c d efgh.txt');
  });

  it('a name that is only controls has no name left and is refused in words', () => {
    const parsed = start(`\n${RLO}\u0007`);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('The file has no name.');
  });

  it('a name longer than 255 characters is refused in words', () => {
    const parsed = start(`${'a'.repeat(256)}.txt`);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/at most 255 characters/);
  });

  it('the name a message gives for an attachment is cleaned the same way', () => {
    const parsed = AttachmentRef.safeParse({ id: 'a'.repeat(64), name: `x${RLO}y\n.png` });
    expect(parsed.success && parsed.data.name).toBe('xy .png');
  });
});

describe('cleanFileName', () => {
  it('keeps ordinary Unicode names as they are (accents, CJK, emoji with joiners, RTL letters)', () => {
    for (const name of ['résumé.pdf', '報告書.txt', 'family 👨‍👩‍👧.png', 'שלום.md', 'a  b.txt']) expect(cleanFileName(name)).toBe(name);
  });

  it('never leaves a control, a line break or a bidi control, never grows, and caps at 255 code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        const clean = cleanFileName(raw);
        // eslint-disable-next-line no-control-regex -- control characters are what must not be left
        expect(clean).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
        expect([...clean].length).toBeLessThanOrEqual(255);
        expect(clean).toBe(clean.trim());
        expect(() => encodeURIComponent(clean)).not.toThrow();
        expect(cleanFileName(clean)).toBe(clean);
      }),
    );
  });
});

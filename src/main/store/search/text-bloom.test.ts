import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextBloom } from './text-bloom';

describe('TextBloom', () => {
  it('never says no for a needle found in a text added, both lower-cased as the search has them', () => {
    const unit = fc.oneof(fc.constantFrom('a', 'B', ' ', 'k', 'K', '\u212a', 'i', 'I', '\u0130', 'é', 'Σ', '😀'), fc.string({ minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 60 }), { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), fc.nat(), (texts, which, a, b) => {
        const bloom = new TextBloom();
        for (const text of texts) bloom.add(text);
        const lower = texts[which % texts.length]!.toLowerCase();
        const [from, to] = [a % (lower.length + 1), b % (lower.length + 1)].sort((x, y) => x - y);
        expect(bloom.mayContain(lower.slice(from, to))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('holds nothing before a text is added, and tells most absent needles apart', () => {
    const bloom = new TextBloom();
    expect(bloom.mayContain('abc')).toBe(false);
    bloom.add('the parser rejects empty keys at the boundary');
    expect(bloom.mayContain('empty keys')).toBe(true);
    expect(bloom.mayContain('qqzz no such text')).toBe(false);
    // Shorter than six characters: always a maybe once anything was added.
    expect(bloom.mayContain('qqzz')).toBe(true);
  });

  it('keeps every piece across new layers, even a text that straddles two', () => {
    // Enough distinct pieces to fill several layers (a new one starts at half full).
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const text = Array.from({ length: 400_000 }, () => String.fromCharCode(0x4e00 + Math.floor(random() * 2000))).join('');
    const bloom = new TextBloom();
    bloom.add(text);
    expect(bloom.bytes).toBeGreaterThan(32 * 1024);
    for (let i = 0; i < 2_000; i++) {
      const at = Math.floor(random() * (text.length - 16));
      expect(bloom.mayContain(text.slice(at, at + 6 + Math.floor(random() * 9)))).toBe(true);
    }
    // Pieces not in the text (other characters): told apart in every layer.
    expect(bloom.mayContain('abcdefgh')).toBe(false);
  });
});

describe('TextBloom kept on disk (search-filter-file.ts)', () => {
  it('sized to its texts and read back from its bytes, never says no for a needle found in a text added', () => {
    const unit = fc.oneof(fc.constantFrom('a', 'B', ' ', 'k', 'K', '\u212a', 'i', 'I', '\u0130', 'é', 'Σ', '😀', '"', '\\'), fc.string({ minLength: 1, maxLength: 1 }));
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 400 }), { minLength: 1, maxLength: 12 }), fc.nat(), fc.nat(), fc.nat(), (texts, which, a, b) => {
        const made = TextBloom.forChars(texts.reduce((n, t) => n + t.length, 0));
        for (const text of texts) made.add(text);
        const bloom = TextBloom.fromBytes(made.toBytes())!;
        expect(bloom).not.toBeNull();
        const lower = texts[which % texts.length]!.toLowerCase();
        const [from, to] = [a % (lower.length + 1), b % (lower.length + 1)].sort((x, y) => x - y);
        expect(bloom.mayContain(lower.slice(from, to))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('is small for a short chat and still tells an absent needle apart; bytes that are not a filter give none', () => {
    const made = TextBloom.forChars(40);
    made.add('the parser rejects empty keys at the boundary');
    expect(made.bytes).toBe(128);
    const bloom = TextBloom.fromBytes(made.toBytes())!;
    expect(bloom.mayContain('empty keys')).toBe(true);
    expect(bloom.mayContain('qqzz no such text')).toBe(false);
    expect(TextBloom.fromBytes(Buffer.from([14, 0, 1, 2, 3]))).toBeNull();
    expect(TextBloom.fromBytes(Buffer.from([40, 0]))).toBeNull();
    expect(TextBloom.fromBytes(Buffer.alloc(1))).toBeNull();
  });
});

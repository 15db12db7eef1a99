import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextBloom } from './text-bloom';

describe('TextBloom', () => {
  it('never says no for a substring of a text added', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 60 }), { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), fc.nat(), (texts, which, a, b) => {
        const bloom = new TextBloom();
        for (const text of texts) bloom.add(text);
        const text = texts[which % texts.length]!;
        const [from, to] = [a % (text.length + 1), b % (text.length + 1)].sort((x, y) => x - y);
        expect(bloom.mayContain(text.slice(from, to))).toBe(true);
      }),
    );
  });

  it('holds nothing before a text is added, and tells most absent needles apart', () => {
    const bloom = new TextBloom();
    expect(bloom.mayContain('abc')).toBe(false);
    bloom.add('the parser rejects empty keys at the boundary');
    expect(bloom.mayContain('empty keys')).toBe(true);
    expect(bloom.mayContain('qqzz no such text')).toBe(false);
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
      const at = Math.floor(random() * (text.length - 12));
      expect(bloom.mayContain(text.slice(at, at + 3 + Math.floor(random() * 9)))).toBe(true);
    }
  });
});

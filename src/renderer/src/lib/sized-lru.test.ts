import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SizedLru } from './sized-lru';

type Op = { op: 'set'; key: number; size: number } | { op: 'get'; key: number } | { op: 'delete'; key: number };

const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('set' as const), key: fc.integer({ min: 0, max: 7 }), size: fc.integer({ min: 0, max: 60 }) }),
    fc.record({ op: fc.constant('get' as const), key: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ op: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 7 }) }),
  ),
  { maxLength: 60 },
);

describe('SizedLru', () => {
  it('behaves as a list in recency order trimmed from its least recent end to the bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), ops, (max, list: Op[]) => {
        const cache = new SizedLru<number, string>(max);
        // The model: most recent last.
        let model: Array<{ key: number; value: string; size: number }> = [];
        list.forEach((step, i) => {
          if (step.op === 'set') {
            const value = `v${i}`;
            cache.set(step.key, value, step.size);
            model = model.filter((e) => e.key !== step.key);
            if (step.size <= max) model.push({ key: step.key, value, size: step.size });
            while (model.reduce((sum, e) => sum + e.size, 0) > max) model.shift();
          } else if (step.op === 'get') {
            const held = model.find((e) => e.key === step.key);
            expect(cache.get(step.key)).toBe(held?.value);
            if (held) model = [...model.filter((e) => e !== held), held];
          } else {
            cache.delete(step.key);
            model = model.filter((e) => e.key !== step.key);
          }
          const total = model.reduce((sum, e) => sum + e.size, 0);
          expect(cache.size).toBe(total);
          expect(cache.size).toBeLessThanOrEqual(max);
          expect(cache.count).toBe(model.length);
        });
      }),
    );
  });

  it('keeps a value replaced with a new size at that size, and drops one larger than the bound', () => {
    const cache = new SizedLru<string, string>(10);
    cache.set('a', 'one', 4);
    cache.set('a', 'two', 6);
    expect(cache.size).toBe(6);
    expect(cache.get('a')).toBe('two');
    cache.set('a', 'huge', 11);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

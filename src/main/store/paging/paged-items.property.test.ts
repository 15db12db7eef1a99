import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/transcript';
import { PagedItems } from './paged-items';

function notice(id: string, text: string): TranscriptItem {
  return { id, kind: 'notice', level: 'info', text, createdAt: '2026-01-01T00:00:00.000Z' };
}

type Op = { kind: 'set'; id: string; text: string } | { kind: 'cut'; id: string };

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), id: ids, text: fc.string({ maxLength: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut' as const), id: ids }) },
);

describe('PagedItems', () => {
  // The model is what ChatSession held before: a Map in insertion order, cut by walking its keys.
  it('orders, upserts and cuts exactly as an insertion-ordered Map does, and knows every position', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.nat(10), fc.nat(10), (ops, a, b) => {
        const model = new Map<string, TranscriptItem>();
        const items = new PagedItems();
        for (const step of ops) {
          if (step.kind === 'set') {
            model.set(step.id, notice(step.id, step.text));
            items.set(notice(step.id, step.text));
          } else {
            let cutting = false;
            for (const id of [...model.keys()]) {
              if (id === step.id) cutting = true;
              if (cutting) model.delete(id);
            }
            items.cutFrom(step.id);
          }
        }
        const expected = [...model.values()];
        expect(items.values()).toEqual(expected);
        expect(items.size).toBe(expected.length);
        expected.forEach((item, index) => {
          expect(items.indexOf(item.id)).toBe(index);
          expect(items.get(item.id)).toEqual(item);
        });
        expect(items.slice(Math.min(a, b), Math.max(a, b))).toEqual(expected.slice(Math.min(a, b), Math.max(a, b)));
      }),
    );
  });

  it('says -1 and undefined for an item it does not hold, and a cut of one changes nothing', () => {
    const items = new PagedItems();
    items.set(notice('a', 'x'));
    expect(items.indexOf('zz')).toBe(-1);
    expect(items.get('zz')).toBeUndefined();
    items.cutFrom('zz');
    expect(items.size).toBe(1);
  });

  it('returns a copy: a kept transcript does not change as the chat goes on', () => {
    const items = new PagedItems();
    items.set(notice('a', 'x'));
    const kept = items.values();
    items.set(notice('b', 'y'));
    expect(kept).toHaveLength(1);
  });
});

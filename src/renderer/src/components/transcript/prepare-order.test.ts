import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareOrder } from './prepare-order';

describe('prepareOrder', () => {
  it('lists the rows around the view once each, nearest first, three above for one below', () => {
    expect(prepareOrder(10, 12, 20, 6, 3)).toEqual([9, 8, 7, 13, 6, 5, 4, 14, 15]);
  });

  it('stays inside the rows, never lists a row in view, and reaches exactly the window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), (first, span, count, above, below) => {
        const last = first + span;
        fc.pre(last < count);
        const order = prepareOrder(first, last, count, above, below);
        expect(new Set(order).size).toBe(order.length);
        const expected = [...Array(count).keys()].filter((i) => (i < first && i >= first - above) || (i > last && i <= last + below));
        expect([...order].sort((a, b) => a - b)).toEqual(expected);
      }),
    );
  });
});

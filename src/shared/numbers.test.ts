import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from './numbers';

describe('formatCount', () => {
  it('reads as toLocaleString("en-US") does, for any number', () => {
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.double({ noNaN: true })), (n) => formatCount(n) === n.toLocaleString('en-US')));
    expect(formatCount(1234567)).toBe('1,234,567');
  });
});

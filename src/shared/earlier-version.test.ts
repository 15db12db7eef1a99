import { describe, expect, it } from 'vitest';
import { earlierTitle, splitEarlierTitle } from './earlier-version';

describe('earlier-version titles', () => {
  it('end with "(earlier version)" once, within 200 characters, and split back into the title', () => {
    expect(earlierTitle('Fix the build')).toBe('Fix the build (earlier version)');
    expect(earlierTitle('Fix the build (earlier version)')).toBe('Fix the build (earlier version)');
    const long = earlierTitle('x'.repeat(300));
    expect(long).toHaveLength(200);
    expect(long.endsWith('… (earlier version)')).toBe(true);
    expect(splitEarlierTitle(earlierTitle('Fix the build'))).toEqual({ base: 'Fix the build', earlier: true });
    expect(splitEarlierTitle('Notes on (earlier version)s')).toEqual({ base: 'Notes on (earlier version)s', earlier: false });
    expect(splitEarlierTitle('(earlier version)')).toEqual({ base: '(earlier version)', earlier: false });
  });
});

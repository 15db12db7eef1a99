import { describe, expect, it } from 'vitest';
import { splitEarlierTitle } from './earlier-version';

describe('earlier-version titles (chats saved by older versions)', () => {
  it('split into the title and the "(earlier version)" suffix only when it ends the title after a space', () => {
    expect(splitEarlierTitle('Fix the build (earlier version)')).toEqual({ base: 'Fix the build', earlier: true });
    expect(splitEarlierTitle('Fix the build')).toEqual({ base: 'Fix the build', earlier: false });
    expect(splitEarlierTitle('Notes on (earlier version)s')).toEqual({ base: 'Notes on (earlier version)s', earlier: false });
    expect(splitEarlierTitle('(earlier version)')).toEqual({ base: '(earlier version)', earlier: false });
  });
});

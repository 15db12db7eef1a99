import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { afterScroll, AT_END_PX, distanceFromEnd, type FollowState, isUpKey, lastUserId } from './stick-to-bottom';

const box = (scrollTop: number, scrollHeight = 5000, clientHeight = 600) => ({ scrollTop, scrollHeight, clientHeight });
const following = (lastTop: number, ownUntil = 0, lastHeight = 5000): FollowState => ({ following: true, lastTop, ownUntil, lastHeight, heldUntil: 0 });
const notFollowing = (lastTop: number): FollowState => ({ following: false, lastTop, ownUntil: 0, lastHeight: 5000, heldUntil: 0 });

describe('stick to bottom', () => {
  it('measures the distance from the end and never below 0', () => {
    expect(distanceFromEnd(box(4400))).toBe(0);
    expect(distanceFromEnd(box(4000))).toBe(400);
    expect(distanceFromEnd(box(4500))).toBe(0);
  });

  it('stops following when the user scrolls up away from the end', () => {
    expect(afterScroll(following(4400), box(4000), 1000).following).toBe(false);
  });

  it("keeps following through the transcript's own corrections right after it took the end", () => {
    // The virtualiser moved the view up while measuring rows, 100 ms after the transcript scrolled:
    // a row above came out 100 px shorter than its estimate, and a reply grew 100 px below.
    expect(afterScroll(following(4400, 1400, 5000), box(4300, 5000), 1100).following).toBe(false);
    expect(afterScroll(following(4400, 1400, 5100), box(4300, 5000), 1100).following).toBe(true);
  });

  it('stops following when something other than the transcript moves the view up, even right after the transcript took the end', () => {
    // A screen reader or a script scrolled 600 px up while a reply streams (the transcript takes the end every frame): the content's height did not change.
    expect(afterScroll(following(4400, 1400), box(3800), 1100).following).toBe(false);
    expect(afterScroll(following(4400, 1400), box(4390), 1100).following).toBe(false);
  });

  it("the transcript's last write landing after the user's wheel does not start following again while the wheel holds", () => {
    // The wheel stopped following at 1000 (held until 1500); the compositor had moved the view 10 px
    // up, then the transcript's write made before the wheel event put it back at the end.
    const wheeled: FollowState = { following: false, lastTop: 4390, ownUntil: 0, lastHeight: 5000, heldUntil: 1500 };
    expect(afterScroll(wheeled, box(4400), 1100).following).toBe(false);
    // Later, reaching the end follows again.
    expect(afterScroll(wheeled, box(4400), 1600).following).toBe(true);
  });

  it('keeps following when the view moves down, and starts again at the end', () => {
    expect(afterScroll(following(3000), box(3500), 1000).following).toBe(true);
    expect(afterScroll(notFollowing(3000), box(4400 - AT_END_PX), 1000).following).toBe(true);
    expect(afterScroll(notFollowing(3000), box(4000), 1000).following).toBe(false);
  });

  it('at the end follows, whatever came before, unless the view is on its way up (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.nat(10_000), fc.nat(10_000), fc.integer({ min: 100, max: 2000 }), fc.nat(AT_END_PX), (was, lastTop, extra, client, slack) => {
        const height = client + extra;
        const top = height - client - slack;
        const state = afterScroll({ following: was, lastTop, ownUntil: 0, lastHeight: height, heldUntil: 0 }, box(top, height, client), 5);
        return state.following === (top >= lastTop ? true : was) && state.lastTop === top;
      }),
    );
  });

  it("a wheel's first few px up, still at the end, do not start following again", () => {
    // The wheel stopped following; its smooth scroll's first frame moved the view 3 px.
    expect(afterScroll(notFollowing(4400), box(4397), 1000).following).toBe(false);
    // While following, the browser settling the end a px up keeps following.
    expect(afterScroll(following(4400), box(4399), 1000).following).toBe(true);
  });

  it('never starts following away from the end (property)', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: AT_END_PX + 1, max: 10_000 }), fc.nat(), (lastTop, away, now) => {
        const state = afterScroll({ following: false, lastTop, ownUntil: 0, lastHeight: 10_000, heldUntil: 0 }, box(10_000 - 600 - away, 10_000, 600), now);
        return !state.following;
      }),
    );
  });

  it('knows the keys that move up, and the newest user message', () => {
    expect(['PageUp', 'ArrowUp', 'Home'].every(isUpKey)).toBe(true);
    expect(['PageDown', 'End', ' ', 'a'].some(isUpKey)).toBe(false);
    expect(lastUserId([{ id: 'u1', kind: 'user' }, { id: 'a1', kind: 'assistant' }, { id: 'u2', kind: 'user' }, { id: 'a2', kind: 'assistant' }])).toBe('u2');
    expect(lastUserId([{ id: 'a1', kind: 'assistant' }])).toBeNull();
  });
});

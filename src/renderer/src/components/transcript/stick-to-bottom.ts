/**
 * Whether the transcript follows its end: the decisions, without React or the DOM, so they can be
 * tested on their own. The view follows while it is at the end; the user scrolling up stops it;
 * reaching the end again (End, scrolling down) starts it again.
 */

/** Within this many px of the end counts as at the end (sub-pixel layout leaves fractions). */
export const AT_END_PX = 4;
/**
 * After the transcript scrolls itself to the end, the virtualiser keeps correcting the position
 * while the rows it just mounted are measured (and it moves up when a row is smaller than its
 * estimate). Scroll events in that window are its own, not the user's.
 */
export const OWN_SCROLL_MS = 600;
/**
 * After the user turns the wheel up (or presses an up key), a scroll event at the end does not
 * start following again for this long: on a busy machine the transcript's last write to scrollTop
 * (made before the wheel event reached the page) lands after it and would undo the wheel.
 */
export const USER_HOLD_MS = 500;

export interface ScrollBox {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export function distanceFromEnd(box: ScrollBox): number {
  return Math.max(0, box.scrollHeight - box.scrollTop - box.clientHeight);
}

export interface FollowState {
  following: boolean;
  /** scrollTop at the last scroll event, to tell scrolling up from scrolling down. */
  lastTop: number;
  /** Until when (performance.now()) scroll events are the transcript's own. */
  ownUntil: number;
  /** scrollHeight at the last scroll event: a move with no change in the content's height is nobody's correction. */
  lastHeight: number;
  /** Until when (performance.now()) the user's wheel or key up holds: reaching the end does not start following. */
  heldUntil: number;
}

/**
 * A scroll event: at the end → follow; moved up and not by the transcript itself → stop following.
 * The transcript's own moves come just after it took the end, from rows measured at other heights
 * than their estimates, so the content's height changed with them. A move up with the content
 * unchanged is nobody's correction: the user moved the view, whatever they used (wheel, keys,
 * scrollbar, a screen reader, the browser's find, a script). While a reply streams the transcript
 * takes the end every frame, so without that test such a move was undone at once (issue 23 item 18).
 */
export function afterScroll(state: FollowState, box: ScrollBox, now: number): FollowState {
  const atEnd = distanceFromEnd(box) <= AT_END_PX;
  const wentUp = box.scrollTop < state.lastTop;
  const resized = Math.abs(box.scrollHeight - state.lastHeight) >= 1;
  const own = now <= state.ownUntil && resized;
  // Moving up still within a few px of the end (a wheel's first frame on a busy machine) keeps
  // what was decided: the wheel that stopped following must not start it again on its way up.
  const held = now <= state.heldUntil;
  const following = wentUp && !own ? (atEnd ? state.following : false) : atEnd ? (held ? state.following : true) : state.following;
  return { ...state, following, lastTop: box.scrollTop, lastHeight: box.scrollHeight };
}

/** Keys that move the view up: pressing one is the user leaving the end. */
export function isUpKey(key: string): boolean {
  return key === 'PageUp' || key === 'ArrowUp' || key === 'Home';
}

/** The id of the newest user message: when it changes, the user has just sent (or edited) one. */
export function lastUserId(items: readonly { id: string; kind: string }[]): string | null {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.kind === 'user') return items[i]!.id;
  return null;
}

import { type PointerEvent, type RefObject, type WheelEvent, useCallback, useLayoutEffect, useRef } from 'react';
import type { TranscriptItem } from '../../../../shared/transcript';
import { afterScroll, type FollowState, isUpKey, lastUserId, OWN_SCROLL_MS, USER_HOLD_MS } from './stick-to-bottom';
import { LIST_CLASS } from './virtual-parts';

export interface StickToBottom {
  onScroll(): void;
  /** The virtualiser's onResize: a row or the viewport changed size. */
  onResize(): void;
  onWheel(event: WheelEvent): void;
  /** Pressing on the log itself is grabbing its scrollbar: what follows is the user's scrolling. */
  onPointerDown(event: PointerEvent): void;
  /** A key the log handles itself or lets the browser scroll with. */
  onKey(key: string): void;
  /** Jump to the end and follow it (End). */
  follow(): void;
  /** Stop following (Home, revealing an item). */
  stopFollowing(): void;
  /** Whether the view follows the end now (not while the user reads further up). */
  isFollowing(): boolean;
}

/**
 * Keeps the virtualised transcript at its end: when it opens, while a reply streams (its row grows)
 * and when the viewport shrinks, until the user scrolls up. The user's own new message always
 * brings the view back to the end.
 *
 * It writes scrollTop itself rather than asking the virtualiser (scrollToIndex): the virtualiser
 * re-aims a requested scroll after every measurement until they stop for a while, and a streaming
 * row is measured every frame, so the request would pull the user back down until the reply
 * ended. Instead, every time the list's box or the viewport changes size (a row measured, the
 * estimate corrected, the panel below growing) the end is taken again while following.
 */
export function useStickToBottom(scrollRef: RefObject<HTMLElement | null>, rowCount: number, items: readonly TranscriptItem[]): StickToBottom {
  const state = useRef<FollowState>({ following: true, lastTop: 0, ownUntil: 0, lastHeight: 0, heldUntil: 0 });
  const lastUser = useRef(lastUserId(items));

  const toEnd = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    state.current.ownUntil = performance.now() + OWN_SCROLL_MS;
    el.scrollTop = el.scrollHeight; // the browser clamps it to the end
  }, [scrollRef]);

  // The user's own new message: follow again and take the end at once. Other changes (a row
  // added, a reply streaming, a plan line growing) reach the end through the observer below when
  // they change the list's height: taking it here too read scrollHeight inside every commit, a
  // forced layout of ≈ 2 ms on each plan update.
  useLayoutEffect(() => {
    const sent = lastUserId(items);
    if (sent === lastUser.current) return;
    lastUser.current = sent;
    if (!sent) return;
    state.current.following = true;
    toEnd();
  }, [items, toEnd]);

  // The list's box (the virtualiser's total height) and the viewport: re-take the end when either changes.
  const hasRows = rowCount > 0;
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => {
      if (state.current.following) toEnd();
    });
    observer.observe(el);
    const list = hasRows ? el.querySelector(`:scope > .${LIST_CLASS}`) : null;
    if (list) observer.observe(list);
    return () => observer.disconnect();
  }, [scrollRef, hasRows, toEnd]);
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el) state.current = afterScroll(state.current, el, performance.now());
  }, [scrollRef]);

  const onResize = useCallback(() => {
    if (state.current.following) toEnd();
  }, [toEnd]);

  const stopFollowing = useCallback(() => {
    state.current.following = false;
    state.current.ownUntil = 0;
    state.current.heldUntil = performance.now() + USER_HOLD_MS;
  }, []);

  const onWheel = useCallback(
    (event: WheelEvent) => {
      if (event.deltaY < 0) stopFollowing();
      else if (event.deltaY > 0) state.current.heldUntil = 0; // heading down: the end may follow again
    },
    [stopFollowing],
  );

  const onPointerDown = useCallback((event: PointerEvent) => {
    if (event.target === event.currentTarget) state.current.ownUntil = 0;
  }, []);

  const onKey = useCallback(
    (key: string) => {
      if (isUpKey(key)) stopFollowing();
      else state.current.heldUntil = 0;
    },
    [stopFollowing],
  );

  const follow = useCallback(() => {
    state.current.following = true;
    state.current.heldUntil = 0;
    toEnd();
  }, [toEnd]);

  const isFollowing = useCallback(() => state.current.following, []);

  return { onScroll, onResize, onWheel, onPointerDown, onKey, follow, stopFollowing, isFollowing };
}

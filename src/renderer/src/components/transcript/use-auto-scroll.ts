import { type RefObject, useCallback, useLayoutEffect, useRef } from 'react';

const NEAR_BOTTOM_PX = 48;

/**
 * Keeps a scroll container pinned to the bottom as content grows, until the user scrolls up;
 * scrolling back down re-pins it.
 */
export function useAutoScroll(ref: RefObject<HTMLElement | null>, content: unknown): () => void {
  const pinned = useRef(true);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM_PX;
  }, [ref]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [ref, content]);

  return onScroll;
}

import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * Whether a box currently scrolls (its content is bigger than it). A box that scrolls must be
 * reachable by keyboard (tabIndex 0) so its hidden part can be read; one that does not should not
 * be an extra Tab stop on the way to the buttons.
 */
export function useScrollable(ref: RefObject<HTMLElement | null>): boolean {
  const [scrollable, setScrollable] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setScrollable(el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
    measure();
    if (typeof ResizeObserver !== 'function') return;
    // The box's own size changes with the window; its content changes only with a render,
    // and every render measures again.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  });
  return scrollable;
}

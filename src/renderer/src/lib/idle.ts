/** What an idle callback is told: how long it may still work before the page needs the thread. */
export interface IdleDeadline {
  timeRemaining(): number;
}

/**
 * Runs `work` in the page's next idle period (requestIdleCallback; a short timeout where there is
 * none, as in tests). Returns a cancel.
 */
export function onIdle(work: (deadline: IdleDeadline) => void): () => void {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work);
    return () => window.cancelIdleCallback(handle);
  }
  const start = performance.now();
  const handle = setTimeout(() => work({ timeRemaining: () => Math.max(0, 8 - (performance.now() - start)) }), 1);
  return () => clearTimeout(handle);
}

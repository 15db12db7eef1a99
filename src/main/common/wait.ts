/** Resolves true after `ms`, or false as soon as the signal aborts (the user's Stop). */
export function waitUnlessStopped(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves after the event loop's current turn: what is due by then (I/O, the event pump's
 * end-of-tick send) goes first.
 */
export function afterThisTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

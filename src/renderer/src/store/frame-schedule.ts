/**
 * When held work goes into the store: `schedule(flush)` arranges one later call of `flush` and
 * returns what cancels it. The batchers (deltas, plans, a reply's bookkeeping) hold events and
 * apply them together on one of these; tests pass a synchronous or hand-run one.
 */
export type Schedule = (flush: () => void) => () => void;

/** About one frame, where there is no requestAnimationFrame (Node in tests). */
const FRAME_MS = 16;

/**
 * Before the next frame paints. With `maxWaitMs`, also after that long when no frame comes: a
 * hidden tab does not paint, and what the sidebar shows must not wait for it to be shown again.
 * Whichever comes first flushes, once.
 */
export function frameSchedule(maxWaitMs?: number): Schedule {
  return (flush) => {
    let done = false;
    const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => once()) : undefined;
    const wait = maxWaitMs ?? (frame === undefined ? FRAME_MS : undefined);
    const timer = wait === undefined ? undefined : setTimeout(() => once(), wait);
    const cancel = () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
    const once = () => {
      if (done) return;
      done = true;
      cancel();
      flush();
    };
    return cancel;
  };
}

/**
 * Streaming text arrives in many small deltas; joining those for the same message and applying
 * them once per animation frame keeps the store (and React) to one update per frame.
 */
export type Schedule = (flush: () => void) => () => void;

export const animationFrameSchedule: Schedule = (flush) => {
  if (typeof requestAnimationFrame === 'function') {
    const handle = requestAnimationFrame(flush);
    return () => cancelAnimationFrame(handle);
  }
  const handle = setTimeout(flush, 16);
  return () => clearTimeout(handle);
};

export interface DeltaBatcher {
  push(sessionId: string, itemId: string, text: string): void;
  /** Applies everything held now; called before any other event so order is kept. */
  flush(): void;
  dispose(): void;
}

export function createDeltaBatcher(
  apply: (sessionId: string, itemId: string, text: string) => void,
  schedule: Schedule = animationFrameSchedule,
): DeltaBatcher {
  // Insertion-ordered; keyed by session and item so interleaved streams stay separate.
  let held = new Map<string, { sessionId: string; itemId: string; text: string }>();
  let cancel: (() => void) | null = null;
  let scheduled = false;

  const flush = () => {
    cancel?.();
    cancel = null;
    scheduled = false;
    const batch = held;
    held = new Map();
    for (const { sessionId, itemId, text } of batch.values()) apply(sessionId, itemId, text);
  };

  return {
    push(sessionId, itemId, text) {
      const key = `${sessionId}\u0000${itemId}`;
      const entry = held.get(key);
      if (entry) entry.text += text;
      else held.set(key, { sessionId, itemId, text });
      if (scheduled) return;
      scheduled = true;
      cancel = schedule(flush);
    },
    flush,
    dispose() {
      cancel?.();
      cancel = null;
      scheduled = false;
      held = new Map();
    },
  };
}

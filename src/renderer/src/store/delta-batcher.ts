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
  /** `offset`: where the text starts in its item (message_delta's); joined deltas keep the first's. */
  push(sessionId: string, itemId: string, text: string, offset?: number): void;
  /** Applies everything held now; called before any other event so order is kept. */
  flush(): void;
  dispose(): void;
}

export function createDeltaBatcher(
  apply: (sessionId: string, itemId: string, text: string, offset?: number) => void,
  schedule: Schedule = animationFrameSchedule,
): DeltaBatcher {
  // Insertion-ordered; keyed by session and item so interleaved streams stay separate.
  let held = new Map<string, { sessionId: string; itemId: string; text: string; offset?: number }>();
  let cancel: (() => void) | null = null;
  let scheduled = false;

  const flush = () => {
    cancel?.();
    cancel = null;
    scheduled = false;
    const batch = held;
    held = new Map();
    for (const { sessionId, itemId, text, offset } of batch.values()) apply(sessionId, itemId, text, offset);
  };

  return {
    push(sessionId, itemId, text, offset) {
      const key = `${sessionId}\u0000${itemId}`;
      const entry = held.get(key);
      if (entry) entry.text += text;
      else held.set(key, { sessionId, itemId, text, ...(offset === undefined ? {} : { offset }) });
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

import { frameSchedule, type Schedule } from './frame-schedule';

/**
 * Streaming text arrives in many small deltas; joining those for the same message and applying
 * them once per animation frame keeps the store (and React) to one update per frame.
 */

export interface DeltaBatcher {
  /** `offset`: where the text starts in its item (message_delta's); joined deltas keep the first's. */
  push(sessionId: string, itemId: string, text: string, offset?: number): void;
  /** Applies everything held now; called before any other event so order is kept. */
  flush(): void;
  dispose(): void;
}

/** The text one message gained since the last frame; `offset` as in message_delta. */
export interface HeldDelta {
  sessionId: string;
  itemId: string;
  text: string;
  offset?: number;
}

/**
 * `apply` gets a frame's text for every message at once, in arrival order: the store applies it
 * as one update, however many chats stream (issue 24: ten chats at once).
 */
export function createDeltaBatcher(apply: (batch: HeldDelta[]) => void, schedule: Schedule = frameSchedule()): DeltaBatcher {
  // Insertion-ordered; keyed by session and item so interleaved streams stay separate.
  let held = new Map<string, HeldDelta>();
  let cancel: (() => void) | null = null;
  let scheduled = false;

  const flush = () => {
    cancel?.();
    cancel = null;
    scheduled = false;
    const batch = held;
    held = new Map();
    if (batch.size > 0) apply([...batch.values()]);
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

import type { WaypointEvent } from '../../../shared/contract';
import type { Schedule } from './frame-schedule';

/**
 * At the end of each reply main sends its bookkeeping (`session_updated` with the cost,
 * `run_state` for the next phase) right before the reply's plan change, each in its own
 * WebSocket message. Applied one by one, each was its own task and React commit, and the plan's
 * commit waited behind them (docs/architecture.md, "Plan updates and a reply's bookkeeping").
 * These two kinds are held instead and applied just before whatever comes next (so the plan
 * lands in the same store update and React commit), or before the next frame paints when
 * nothing follows: what is painted is the same, order is kept, nothing is dropped.
 * A sub-agent's card lines (`subagent_line`) are held the same way: each plan change of a
 * sub-agent is a line and then a snapshot, and the panel's snapshot waited behind the lines'
 * commits (issue 26's tree of sub-agents).
 */
export type BookkeepingEvent = Extract<WaypointEvent, { type: 'session_updated' | 'run_state' | 'subagent_line' }>;

export const isBookkeeping = (event: WaypointEvent): event is BookkeepingEvent => event.type === 'session_updated' || event.type === 'run_state' || event.type === 'subagent_line';

export interface BookkeepingBatcher {
  push(event: BookkeepingEvent): void;
  /** Applies everything held now, in arrival order (after `before`); nothing held, nothing done. */
  flush(): void;
  dispose(): void;
}

/** `before` runs ahead of each batch: what was held elsewhere and arrived earlier (plans) goes first. */
export function createBookkeepingBatcher(apply: (event: BookkeepingEvent) => void, schedule: Schedule, before: () => void = () => {}): BookkeepingBatcher {
  let held: BookkeepingEvent[] = [];
  let cancel: (() => void) | null = null;
  let scheduled = false;

  const flush = () => {
    cancel?.();
    cancel = null;
    scheduled = false;
    if (held.length === 0) return; // nothing to go after: held plans keep their frame
    before();
    const batch = held;
    held = [];
    for (const event of batch) apply(event);
  };

  return {
    push(event) {
      held.push(event);
      if (scheduled) return;
      scheduled = true;
      cancel = schedule(flush);
      // A synchronous schedule (tests) has already flushed: nothing is left to cancel.
      if (!scheduled) cancel = null;
    },
    flush,
    dispose() {
      cancel?.();
      cancel = null;
      scheduled = false;
      held = [];
    },
  };
}

import type { WaypointEvent } from '../../shared/contract';

type PlanUpdated = Extract<WaypointEvent, { type: 'plan_updated' }>;

/** Defers a callback to the end of the current tick (after its microtasks); returns a cancel. */
export type TickSchedule = (run: () => void) => () => void;

export const nextTick: TickSchedule = (run) => {
  const handle = setImmediate(run);
  return () => clearImmediate(handle);
};

/**
 * Coalesces `plan_updated` per session within one tick before it is serialised: a model turn
 * with many planning calls runs them in one tick, and each event carries the whole plan, so only
 * the newest snapshot per session is sent. Every other event is passed through at once, in
 * order, never dropped. A held plan is sent before any event of its session that could depend on
 * it; only the transcript line and sidebar progress that ChatService publishes for each plan
 * change (just ahead of its plan_updated) may pass it — they describe a newer plan anyway.
 */
export interface PlanCoalescer {
  push(event: WaypointEvent): void;
  /** Sends every held plan now. */
  flush(): void;
  dispose(): void;
}

export function createPlanCoalescer(send: (event: WaypointEvent) => void, schedule: TickSchedule = nextTick): PlanCoalescer {
  // Insertion-ordered, so held plans of several sessions go out in the order they first arrived.
  let held = new Map<string, PlanUpdated>();
  let cancel: (() => void) | null = null;

  const flushSession = (sessionId: string) => {
    const plan = held.get(sessionId);
    if (!plan) return;
    held.delete(sessionId);
    send(plan);
  };
  const flush = () => {
    cancel?.();
    cancel = null;
    const batch = held;
    held = new Map();
    for (const plan of batch.values()) send(plan);
  };

  return {
    push(event) {
      if (event.type === 'plan_updated') {
        const pending = held.get(event.sessionId);
        if (pending && pending.version > event.version) return; // never send a plan backwards
        held.set(event.sessionId, event);
        if (!cancel) cancel = schedule(flush);
        return;
      }
      const sessionId = sessionOf(event);
      if (sessionId === undefined) flush();
      else if (!announcesPlanChange(event)) flushSession(sessionId);
      send(event);
    },
    flush,
    dispose() {
      cancel?.();
      cancel = null;
      held = new Map();
    },
  };
}

/** The session an event belongs to; undefined for app-wide events (which flush everything). */
function sessionOf(event: WaypointEvent): string | undefined {
  if (event.type === 'session_updated') return event.session.id;
  return 'sessionId' in event && typeof event.sessionId === 'string' ? event.sessionId : undefined;
}

function announcesPlanChange(event: WaypointEvent): boolean {
  if (event.type === 'session_updated') return true;
  return event.type === 'transcript_item' && (event.item.kind === 'plan_change' || event.item.kind === 'plan_completion');
}

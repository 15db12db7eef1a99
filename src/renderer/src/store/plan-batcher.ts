import type { WaypointEvent } from '../../../shared/contract';
import { animationFrameSchedule, type Schedule } from './delta-batcher';

/**
 * Plan traffic: every plan change arrives as its transcript line, the chat's sidebar progress and
 * the whole plan snapshot — up to hundreds a second while Claude works through a plan. Committing
 * each on its own cost a React render and a transcript layout per event, and the panel fell
 * seconds behind. So after the first plan in a frame is applied (at once: no added latency at
 * low rates), further plan traffic waits, in order, for the next animation frame and is applied
 * there in one batch (one render). Within the wait only the newest plan and the newest sidebar
 * summary of each session are kept: both are complete snapshots, so nothing is lost, and an older
 * plan never replaces a newer one.
 */
export type PlanTraffic = Extract<WaypointEvent, { type: 'plan_updated' | 'session_updated' | 'transcript_item' }>;

export interface PlanBatcher {
  push(event: PlanTraffic): void;
  /** Applies everything held now, in order (before any event that must see the newest plan). */
  flush(): void;
  dispose(): void;
}

/** The transcript lines and sidebar updates that ChatService publishes for each plan change. */
export function isPlanTraffic(event: WaypointEvent): event is PlanTraffic {
  if (event.type === 'plan_updated' || event.type === 'session_updated') return true;
  return event.type === 'transcript_item' && (event.item.kind === 'plan_change' || event.item.kind === 'plan_completion');
}

export function createPlanBatcher(apply: (event: PlanTraffic) => void, schedule: Schedule = animationFrameSchedule): PlanBatcher {
  let held: PlanTraffic[] = [];
  /** A plan was applied since the last frame: more plan traffic waits for the next one. */
  let spent = false;
  let cancel: (() => void) | null = null;

  const flush = () => {
    const batch = held;
    held = [];
    for (const event of batch) apply(event);
  };
  const onFrame = () => {
    cancel = null;
    spent = held.length > 0;
    flush();
    // A steady stream gets exactly one batch per frame; an idle frame ends the throttling.
    if (spent) cancel = schedule(onFrame);
  };
  const hold = (event: PlanTraffic) => {
    const older = held.findIndex((e) => replaces(event, e));
    if (older >= 0) {
      const previous = held[older] as PlanTraffic;
      if (event.type === 'plan_updated' && previous.type === 'plan_updated' && previous.version > event.version) return;
      held.splice(older, 1);
    }
    held.push(event);
    if (!cancel) cancel = schedule(onFrame);
  };

  return {
    push(event) {
      if (held.length > 0 || spent) return hold(event);
      if (event.type === 'plan_updated') {
        spent = true;
        if (!cancel) cancel = schedule(onFrame);
      }
      apply(event);
    },
    flush,
    dispose() {
      cancel?.();
      cancel = null;
      held = [];
      spent = false;
    },
  };
}

/** A newer snapshot of the same thing: the same session's plan, or its sidebar summary. */
function replaces(next: PlanTraffic, held: PlanTraffic): boolean {
  if (next.type === 'plan_updated') return held.type === 'plan_updated' && held.sessionId === next.sessionId;
  if (next.type === 'session_updated') return held.type === 'session_updated' && held.session.id === next.session.id;
  return false;
}

import type { WaypointEvent } from '../../../shared/contract';
import { canFold, foldPlanUpdates } from '../../../shared/plan-change';
import { frameSchedule, type Schedule } from './frame-schedule';

/**
 * Plan updates while Claude works through a plan can come hundreds a second. Committing each on
 * its own cost a React render and a transcript layout per event, and the panel fell seconds
 * behind. So after the first plan update in a frame is applied (at once: no added latency at low
 * rates), further ones wait for the next animation frame and are applied there in one batch (one
 * render). Within the wait a chat's updates fold into its newest (plan-change.ts: every change's
 * transcript line is kept), so only complete snapshots are applied.
 *
 * An update that cannot fold into what its chat shows — a new plan (another id), a plan's
 * completion, a chat's first plan in this page — is applied at once too, after what is held: main
 * sends it as a second event in the same turn as the old plan's last changes (it cannot fold them
 * either), and holding it gave every new plan a frame's wait (bench/README, session 8). It comes
 * once per plan, so the one-batch-a-frame bound still holds for a stream of changes.
 */
export type PlanUpdated = Extract<WaypointEvent, { type: 'plan_updated' }>;

export interface PlanBatcher {
  push(event: PlanUpdated): void;
  /** Applies everything held now, in order (before any event that must see the newest plan). */
  flush(): void;
  dispose(): void;
}

export function createPlanBatcher(apply: (event: PlanUpdated) => void, schedule: Schedule = frameSchedule()): PlanBatcher {
  let held: PlanUpdated[] = [];
  /** A plan was applied since the last frame: more plan updates wait for the next one. */
  let spent = false;
  let cancel: (() => void) | null = null;
  /** Per chat, the plan it shows (or will once `held` is applied): what an update must fold into. */
  const shown = new Map<string, PlanUpdated>();
  const isNewPlan = (event: PlanUpdated) => {
    const last = shown.get(event.sessionId);
    return !last || !canFold(last, event);
  };

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
  const hold = (event: PlanUpdated) => {
    const last = held.findLastIndex((e) => e.sessionId === event.sessionId);
    const previous = held[last];
    if (previous && canFold(previous, event)) held.splice(last, 1, foldPlanUpdates(previous, event));
    else held.push(event);
    if (!cancel) cancel = schedule(onFrame);
  };

  return {
    push(event) {
      const newPlan = isNewPlan(event);
      shown.set(event.sessionId, event);
      if ((held.length > 0 || spent) && !newPlan) return hold(event);
      flush();
      spent = true;
      if (!cancel) cancel = schedule(onFrame);
      apply(event);
    },
    flush,
    dispose() {
      cancel?.();
      cancel = null;
      held = [];
      shown.clear();
      spent = false;
    },
  };
}

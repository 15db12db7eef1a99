import { isAwaitingApproval } from '../../../shared/plan';
import { isUnfinished, stepsLeft } from '../../../shared/plan-pause';
import { useWaypoint } from '../store/store-context';

/**
 * Whether the current chat's plan is paused (docs/contract.md §5): main says the last turn ended with
 * it unfinished, and nothing runs or waits on the user now. Not shown while Claude works, nor
 * over a question (approval, stuck step) or a "Resume" after a crash. Returns the steps left, or
 * null when not paused.
 */
export function usePlanPause(): number | null {
  return useWaypoint((s) => {
    const id = s.currentSessionId;
    if (!id) return null;
    const summary = s.sessions.find((session) => session.id === id);
    const plan = s.plans[id];
    const idle = (s.runStates[id]?.status ?? 'idle') === 'idle';
    const waiting = !!s.approvals[id] || !!s.escalations[id] || !!summary?.interrupted;
    // A proposal is not paused: it waits for the user's approval (plan first).
    return summary?.planProgress?.paused && idle && !waiting && isUnfinished(plan) && !isAwaitingApproval(plan) ? stepsLeft(plan) : null;
  });
}

import type { Plan } from '../../shared/plan';
import type { PlanChangeItem, PlanCompletionItem, SessionSummary } from '../../shared/transcript';
import type { PlanUpdate } from '../plan/plan-service.types';
import { newItemId, nowIso } from './transcript-items';

/** Planning tools get no tool card: each plan change shows as one line, completion as a summary. */
export function planItemFor(update: PlanUpdate, newlyCompleted: boolean): PlanChangeItem | PlanCompletionItem {
  const { plan } = update;
  if (newlyCompleted && plan.completion) {
    return {
      id: newItemId(),
      createdAt: nowIso(),
      kind: 'plan_completion',
      goal: plan.goal,
      completion: plan.completion,
      counts: {
        completed: plan.summary.completed,
        failed: plan.summary.failed,
        skipped: plan.summary.skipped,
        total: plan.summary.total,
      },
    };
  }
  return { id: newItemId(), createdAt: nowIso(), kind: 'plan_change', text: update.change, version: update.version };
}

export function planProgress(plan: Plan): NonNullable<SessionSummary['planProgress']> {
  return { completed: plan.summary.completed, total: plan.summary.total, status: plan.status };
}

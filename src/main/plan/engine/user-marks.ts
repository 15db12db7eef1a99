import type { Plan, PlanStep } from '../../../shared/plan';
import type { PlanEditRecord } from '../../../shared/plan-edit';

/**
 * What the user's edits forbid Claude: a step the user skipped or deleted is not Claude's to
 * start, complete or fail (docs/contract.md §2). The plan keeps its edits, so these answers need nothing
 * but the plan, and hold after a restart.
 */

function lastEditOf(plan: Plan, stepId: number, kind: PlanEditRecord['kind']): PlanEditRecord | undefined {
  const edits = plan.edits ?? [];
  for (let i = edits.length - 1; i >= 0; i--) {
    const edit = edits[i] as PlanEditRecord;
    if (edit.stepId === stepId && edit.kind === kind) return edit;
  }
  return undefined;
}

/** The user skipped this step (and it is still skipped). */
export function skippedByUser(plan: Plan, step: PlanStep): boolean {
  return step.status === 'skipped' && !!lastEditOf(plan, step.id, 'skip');
}

/** Claude's refusal for a status change of a step the user skipped, or null. */
export function userSkipError(plan: Plan, step: PlanStep): string | null {
  if (!skippedByUser(plan, step)) return null;
  return `The user skipped step ${step.id} "${step.title}", so it can't be started, completed or failed. Leave it skipped and go on with the other steps.`;
}

/** Claude's error for a step id the user deleted, or null when the user deleted no such step. */
export function userDeleteError(plan: Plan, stepId: number): string | null {
  const deleted = lastEditOf(plan, stepId, 'delete');
  if (!deleted) return null;
  return `The user deleted step ${stepId} "${deleted.title}" from the plan, so it can't be started, completed, failed or changed. Go on with the other steps.`;
}

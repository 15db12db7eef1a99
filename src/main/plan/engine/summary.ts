import type { PlanStep, PlanSummary } from '../../../shared/plan';

/** The computed counts of docs/contract.md §2; percent = round(100 · completed / total), 0 when empty. */
export function computeSummary(steps: readonly Pick<PlanStep, 'status'>[]): PlanSummary {
  const summary = { total: steps.length, completed: 0, in_progress: 0, pending: 0, failed: 0, skipped: 0 };
  for (const step of steps) summary[step.status] += 1;
  const percent = summary.total === 0 ? 0 : Math.round((100 * summary.completed) / summary.total);
  return { ...summary, percent };
}

/** Every step is completed or skipped (and there is at least one): the plan is done. */
export function allStepsDone(steps: readonly Pick<PlanStep, 'status'>[]): boolean {
  if (steps.length === 0) return false;
  for (const s of steps) if (s.status !== 'completed' && s.status !== 'skipped') return false;
  return true;
}

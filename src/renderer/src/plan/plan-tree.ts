import type { Plan, StepStatus } from '../../../shared/plan';

// The numbering is shared with main (transcript lines, the CLI), so every surface says the same number.
export { buildStepTree, stepNumbers, type StepNode } from '../../../shared/step-numbers';

/** docs/contract.md §5: N = completed steps, M = all steps, percent = round(100·N/M). */
export function planProgress(plan: Plan): { completed: number; total: number; percent: number } {
  const total = plan.steps.length;
  const completed = plan.steps.filter((step) => step.status === 'completed').length;
  return { completed, total, percent: total === 0 ? 0 : Math.round((100 * completed) / total) };
}

export const STATUS_TEXT: Record<StepStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

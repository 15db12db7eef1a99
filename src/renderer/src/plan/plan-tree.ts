import type { Plan, PlanStep, StepStatus } from '../../../shared/plan';

export interface StepNode {
  step: PlanStep;
  children: StepNode[];
}

/** Steps nested under their parentId, keeping plan order; orphans are shown at the top level. */
export function buildStepTree(steps: readonly PlanStep[]): StepNode[] {
  const nodes = new Map<number, StepNode>();
  for (const step of steps) nodes.set(step.id, { step, children: [] });
  const roots: StepNode[] = [];
  for (const step of steps) {
    const node = nodes.get(step.id);
    if (!node) continue;
    const parent = step.parentId !== undefined && step.parentId !== step.id ? nodes.get(step.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** design.md §5: N = completed steps, M = all steps, percent = round(100·N/M). */
export function planProgress(plan: Plan): { completed: number; total: number; percent: number } {
  const total = plan.steps.length;
  const completed = plan.steps.filter((step) => step.status === 'completed').length;
  return { completed, total, percent: total === 0 ? 0 : Math.round((100 * completed) / total) };
}

/** How a step is named in the panel and in "after …": its dialect label, else its id. */
export function stepLabel(step: Pick<PlanStep, 'id' | 'label'>): string {
  return step.label ?? String(step.id);
}

export const STATUS_TEXT: Record<StepStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

/** Marks from seed 002 plus failed/skipped; the spinner for in progress is drawn in CSS. */
export const STATUS_MARK: Record<StepStatus, string> = {
  pending: '○',
  in_progress: '',
  completed: '✓',
  failed: '✗',
  skipped: '⤼',
};

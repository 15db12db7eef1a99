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

/**
 * How each step is numbered in the panel, in "after …" and in the escalation's title: by its
 * position (1, 2, 3; 2.1 for the first sub-step of 2), so a step Claude added later (id 6) between
 * 2 and 3 reads "3.", not a puzzling "6.". A dialect's own label (the WBS id "1.2", which Claude
 * uses) is kept. The step's id, which Claude's own words use ("step 6"), shows in its detail.
 */
export function stepNumbers(steps: readonly PlanStep[]): Map<number, string> {
  const numbers = new Map<number, string>();
  const walk = (nodes: StepNode[], prefix: string) =>
    nodes.forEach((node, index) => {
      const number = node.step.label ?? `${prefix}${index + 1}`;
      numbers.set(node.step.id, number);
      walk(node.children, `${number}.`);
    });
  walk(buildStepTree(steps), '');
  return numbers;
}

export const STATUS_TEXT: Record<StepStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

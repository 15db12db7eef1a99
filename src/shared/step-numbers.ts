import type { PlanStep } from './plan';

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

/**
 * How each step is numbered wherever a person reads it — the panel, "after …", the escalation's
 * title, the transcript's plan lines, the CLI: by its position (1, 2, 3; 2.1 for the first
 * sub-step of 2), so a step Claude added later (id 6) between 2 and 3 reads "3" everywhere, not
 * "6" in one place and "3." in another. A dialect's own label (the WBS id "1.2", which Claude
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

import type { Plan } from '../../../../shared/plan';
import { buildStepTree, stepNumbers, type StepNode } from '../../plan/plan-tree';
import { stepActions, type StepAction } from './step-actions';

/** What a step's row shows besides the step itself: its number, "after …" and its menu. */
export interface RowFacts {
  number: string;
  /** The numbers of the steps it depends on ("1, 2"), or null. */
  after: string | null;
  actions: readonly StepAction[];
}

export interface PlanRows {
  tree: StepNode[];
  facts: ReadonlyMap<number, RowFacts>;
}

/**
 * The panel's rows for `plan`. Every node and facts object that did not change since `previous`
 * keeps its identity (the store keeps equal steps' objects, share-steps.ts), so a memoised row
 * re-renders only when its step or what it shows about it changed: a reply that moves two steps
 * of forty renders two rows, not forty.
 */
export function planRows(plan: Plan, previous?: PlanRows): PlanRows {
  const numbers = stepNumbers(plan.steps);
  const numberOf = (id: number) => numbers.get(id) ?? String(id);
  const facts = new Map<number, RowFacts>();
  for (const step of plan.steps) {
    const next: RowFacts = {
      number: numberOf(step.id),
      after: step.dependsOn.length > 0 ? step.dependsOn.map(numberOf).join(', ') : null,
      actions: stepActions(plan, step),
    };
    const old = previous?.facts.get(step.id);
    facts.set(step.id, old && sameFacts(old, next) ? old : next);
  }
  return { tree: shareNodes(previous?.tree, buildStepTree(plan.steps)), facts };
}

/** Whether a row shows the same as before: the same node (steps of its subtree) and the same facts for each of them. */
export function sameSubtree(node: StepNode, before: ReadonlyMap<number, RowFacts>, after: ReadonlyMap<number, RowFacts>): boolean {
  return before.get(node.step.id) === after.get(node.step.id) && node.children.every((child) => sameSubtree(child, before, after));
}

function sameFacts(a: RowFacts, b: RowFacts): boolean {
  return a.number === b.number && a.after === b.after && a.actions.length === b.actions.length && a.actions.every((action, i) => action === b.actions[i]);
}

/** `next` with every subtree whose steps are the same objects as in `previous` replaced by the old node. */
function shareNodes(previous: readonly StepNode[] | undefined, next: StepNode[]): StepNode[] {
  const before = new Map((previous ?? []).map((node) => [node.step.id, node]));
  return next.map((node) => {
    const old = before.get(node.step.id);
    const children = shareNodes(old?.children, node.children);
    const same = old !== undefined && old.step === node.step && old.children.length === children.length && children.every((child, i) => child === old.children[i]);
    return same ? old : { step: node.step, children };
  });
}

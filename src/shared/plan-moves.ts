import type { PlanStep } from './plan';

/**
 * "Move up" / "Move down" (docs/contract.md §5): a pending step swaps places with the nearest pending
 * step above or below it at the same level. The engine moves by this rule and the panel offers
 * only the moves it allows, so the two never disagree.
 */
export function movePartnerIndex(steps: readonly PlanStep[], index: number, direction: 'up' | 'down'): number | null {
  const step = steps[index];
  if (!step || step.status !== 'pending') return null;
  const delta = direction === 'up' ? -1 : 1;
  for (let i = index + delta; i >= 0 && i < steps.length; i += delta) {
    const other = steps[i] as PlanStep;
    if (other.parentId === step.parentId && other.status === 'pending') return i;
  }
  return null;
}

/**
 * Whether the step can move that way: it is pending, has a pending neighbour there, and neither
 * depends on the other (a step never moves above one it depends on).
 */
export function canMoveStep(steps: readonly PlanStep[], stepId: number, direction: 'up' | 'down'): boolean {
  const index = steps.findIndex((s) => s.id === stepId);
  const partner = index < 0 ? null : movePartnerIndex(steps, index, direction);
  if (partner === null) return false;
  const [upper, lower] = direction === 'up' ? [steps[partner], steps[index]] : [steps[index], steps[partner]];
  return !!upper && !!lower && !lower.dependsOn.includes(upper.id);
}

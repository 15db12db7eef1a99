import type { Plan, PlanStep } from '../../../shared/plan';
import { movePartnerIndex } from '../../../shared/plan-moves';
import { endOfSubtree } from './add-steps';
import type { EditDraft } from './edit-draft';

/**
 * "Move up" / "Move down": a pending step swaps places with the nearest pending step above or
 * below it at the same level (shared/plan-moves.ts); sub-steps travel with their parent, and a
 * step never moves above a step it depends on. The list stays in tree order, so every structural
 * rule still holds.
 */
export function moveStep(plan: Plan, index: number, direction: 'up' | 'down'): EditDraft {
  const steps = plan.steps;
  const step = steps[index] as PlanStep;
  if (step.status !== 'pending') {
    return { ok: false, error: `Step ${step.id} is ${step.status.replace('_', ' ')}; only pending steps can be moved.` };
  }
  const partnerAt = movePartnerIndex(steps, index, direction);
  if (partnerAt === null) {
    return { ok: false, error: `Step ${step.id} is already the ${direction === 'up' ? 'first' : 'last'} pending step at its level, so it can't move ${direction}.` };
  }
  const partner = steps[partnerAt] as PlanStep;
  const [upper, lower] = direction === 'up' ? [partner, step] : [step, partner];
  if (lower.dependsOn.includes(upper.id)) {
    return { ok: false, error: `Step ${lower.id} depends on step ${upper.id}, so it can't move above it.` };
  }
  const first = Math.min(index, partnerAt);
  const second = Math.max(index, partnerAt);
  const firstEnd = endOfSubtree(steps, first);
  const secondEnd = endOfSubtree(steps, second);
  const reordered = [
    ...steps.slice(0, first),
    ...steps.slice(second, secondEnd + 1),
    ...steps.slice(firstEnd + 1, second),
    ...steps.slice(first, firstEnd + 1),
    ...steps.slice(secondEnd + 1),
  ];
  return {
    ok: true,
    steps: reordered,
    record: { kind: 'move', stepId: step.id, title: step.title, direction, swappedWith: partner.id },
    summary: `You moved step ${step.id} ${direction}`,
  };
}

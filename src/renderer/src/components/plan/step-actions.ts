import type { Plan, PlanStep } from '../../../../shared/plan';
import { canMoveStep } from '../../../../shared/plan-moves';

/** The entries of a step's "Edit step" menu: only those that apply to it now (docs/contract.md §5). */
export type StepAction = 'Rename' | 'Skip' | 'Delete' | 'Move up' | 'Move down';

export function stepActions(plan: Plan, step: PlanStep): StepAction[] {
  if (step.status === 'completed' || step.status === 'skipped') return [];
  const actions: StepAction[] = ['Rename', 'Skip'];
  if (step.status !== 'pending') return actions;
  const needed = plan.steps.some((s) => s.parentId === step.id || s.dependsOn.includes(step.id));
  if (!needed && plan.steps.length > 1) actions.push('Delete');
  if (canMoveStep(plan.steps, step.id, 'up')) actions.push('Move up');
  if (canMoveStep(plan.steps, step.id, 'down')) actions.push('Move down');
  return actions;
}

import type { Plan, PlanStep } from '../../../shared/plan';
import { listIds } from './validate-plan';

export type Found = { ok: true; step: PlanStep; index: number } | { ok: false; error: string };

/** The step with this id, or an error listing the ids that do exist. */
export function findStep(plan: Plan, id: number): Found {
  const index = plan.steps.findIndex((s) => s.id === id);
  const step = plan.steps[index];
  if (!step) {
    return { ok: false, error: `Step ${id} does not exist. Existing steps: ${listIds(plan.steps.map((s) => s.id))}.` };
  }
  return { ok: true, step, index };
}

export function replaceStep(plan: Plan, index: number, step: PlanStep): Plan {
  const steps = plan.steps.slice();
  steps[index] = step;
  return { ...plan, steps };
}

export function closedError(plan: Plan): string {
  return `The plan "${plan.goal}" is already finished (status: ${plan.status}) and can't change any more. Start a new plan to continue.`;
}

import type { Plan, PlanStep } from '../../../shared/plan';
import { userDeleteError } from './user-marks';
import { listIds } from './validate-plan';

export type Found = { ok: true; step: PlanStep; index: number } | { ok: false; error: string };

/*
 * Snapshots are frozen, and V8 runs the callback builtins (findIndex, filter, slice, some) on a
 * frozen array on a slow path, ≈ 30× slower than a plain loop or a spread: the hot paths of the
 * engine and the tool results therefore loop.
 */

/** The step with this id, or an error listing the ids that do exist. */
export function findStep(plan: Plan, id: number): Found {
  const steps = plan.steps;
  let index = -1;
  for (let i = 0; i < steps.length; i++) {
    if ((steps[i] as PlanStep).id === id) {
      index = i;
      break;
    }
  }
  const step = steps[index];
  if (!step) {
    const deleted = userDeleteError(plan, id);
    if (deleted) return { ok: false, error: deleted };
    return { ok: false, error: `Step ${id} does not exist. Existing steps: ${listIds(plan.steps.map((s) => s.id))}.` };
  }
  return { ok: true, step, index };
}

export function replaceStep(plan: Plan, index: number, step: PlanStep): Plan {
  const steps = [...plan.steps];
  steps[index] = step;
  return { ...plan, steps };
}

export function closedError(plan: Plan): string {
  return `The plan "${plan.goal}" is already finished (status: ${plan.status}) and can't change any more. Start a new plan to continue.`;
}

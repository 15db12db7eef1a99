import { dequal } from 'dequal';
import type { Plan, PlanStep } from '../../../shared/plan';

/**
 * Every plan update arrives whole and freshly parsed, so each step is a new object even when
 * only one of forty changed. Keeping the held plan's object for every step that is equal lets the
 * panel re-render only the rows that changed (PlanStepItem is memoised on the step's identity).
 */
export function shareSteps(held: Plan | null | undefined, plan: Plan): Plan {
  if (!held || held.id !== plan.id) return plan;
  const before = new Map<number, PlanStep>(held.steps.map((step) => [step.id, step]));
  let reused = 0;
  const steps = plan.steps.map((step) => {
    const old = before.get(step.id);
    if (!old || !dequal(old, step)) return step;
    reused++;
    return old;
  });
  return reused === 0 ? plan : { ...plan, steps };
}

import type { Plan } from './plan';

/**
 * A plan left unfinished when a turn ends (end_turn or Stop) is paused (docs/contract.md §5): the panel
 * says "Paused" and offers "Continue plan", which sends this message. Main decides when a turn
 * left it paused (SessionSummary.planProgress.paused); both sides count the steps the same way.
 */

/** Steps still to do: pending or in progress. */
export function stepsLeft(plan: Plan): number {
  return plan.steps.filter((step) => step.status === 'pending' || step.status === 'in_progress').length;
}

/** Active with work left: what a turn ending can leave paused. */
export function isUnfinished(plan: Plan | null | undefined): plan is Plan {
  return !!plan && plan.status === 'active' && stepsLeft(plan) > 0;
}

export function stepsLeftText(n: number): string {
  return `${n} step${n === 1 ? '' : 's'} left`;
}

/** The user message "Continue plan" sends. */
export function continuePlanMessage(plan: Plan): string {
  return `Continue the plan: ${stepsLeftText(stepsLeft(plan))}`;
}

import { extendedBudget, spendOfBudget, type BudgetAnswer, type BudgetReached, type PlanBudget } from '../../../shared/budget';
import type { Plan } from '../../../shared/plan';
import { type EngineOptions, type OpResult, rejected } from './engine-types';
import { sealPlan } from './seal';

/**
 * A plan's budget as engine changes (docs/architecture.md "Plan budgets"): each is a new version
 * of the plan, so it is in the chat's log and comes back after a restart. The run's check lives
 * in agent/plan-hooks/budget-gate.ts; these only record what it and the user decided.
 */

function activeOnly(plan: Plan | null, planId?: string): string | null {
  if (!plan) return 'There is no plan.';
  if (planId !== undefined && plan.id !== planId) return 'This plan was replaced; the budget was not changed.';
  if (plan.status !== 'active') return `Only an active plan has a budget to change; this one is ${plan.status}.`;
  return null;
}

/** "Save budget": the plan's dollar budget from now on (a figure below the spend stops the next request). */
export function setPlanBudget(plan: Plan | null, planId: string, usd: number, options: EngineOptions): OpResult {
  const refusal = activeOnly(plan, planId);
  if (refusal) return rejected(refusal);
  const budget: PlanBudget = { ...plan!.budget, usd };
  return sealPlan({ ...plan!, budget }, plan!.version, options, `Budget set to $${usd.toFixed(2)}`);
}

/** The run stopped before a request that would pass the budget: the plan awaits the user's answer. */
export function markBudgetReached(plan: Plan | null, reached: BudgetReached, options: EngineOptions): OpResult {
  const refusal = activeOnly(plan);
  if (refusal) return rejected(refusal);
  const budget: PlanBudget = { ...plan!.budget, reached };
  const what = reached.limit === 'time' ? `${Math.round(reached.elapsedMinutes)} of ${plan!.budget?.minutes ?? 0} minutes` : spendOfBudget(reached.spentUsd, plan!.budget?.usd ?? 0);
  return sealPlan({ ...plan!, budget }, plan!.version, options, `Budget reached: ${what}`);
}

/**
 * The answer to "Budget reached": "Extend budget" raises what stopped the run (the budget once
 * more, or the figure typed) and clears the stop; "End plan" closes the plan as partial, with a
 * summary by Waypoint, so Claude is not asked again.
 */
export function answerBudget(plan: Plan | null, answer: BudgetAnswer, spentUsd: number, options: EngineOptions): OpResult {
  const refusal = activeOnly(plan);
  if (refusal) return rejected(refusal);
  const current = plan!;
  const { reached: _answered, ...limits } = current.budget ?? {};
  if (answer.kind === 'end') {
    const summary = `Ended at its budget: ${current.budget?.usd !== undefined ? `${spendOfBudget(spentUsd, current.budget.usd)} spent` : `$${spentUsd.toFixed(2)} spent`}. Steps not done were not worked on.`;
    const done = current.steps.filter((s) => s.status === 'completed').length;
    return sealPlan(
      { ...current, budget: limits, status: 'partial', completion: { status: 'partial_success', summary, stepsCompleted: done, issues: ['The plan was ended at its budget.'] } },
      current.version,
      options,
      'Plan ended at its budget',
    );
  }
  // A stop for time raises the time, unless a dollar figure was typed; a stop for dollars raises the dollars.
  const raiseUsd = answer.usd !== undefined || (current.budget?.reached?.limit !== 'time' && limits.usd !== undefined);
  const usd = raiseUsd ? extendedBudget(limits.usd, answer, spentUsd) : limits.usd;
  // Time is measured from the plan's start: once more of it means the limit doubles.
  const minutes = current.budget?.reached?.limit === 'time' && limits.minutes !== undefined ? limits.minutes * 2 : limits.minutes;
  const budget: PlanBudget = { ...(usd !== undefined ? { usd } : {}), ...(minutes !== undefined ? { minutes } : {}) };
  return sealPlan({ ...current, budget }, current.version, options, `Budget extended${usd !== undefined ? ` to $${usd.toFixed(2)}` : ''}`);
}

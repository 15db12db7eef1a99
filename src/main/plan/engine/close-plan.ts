import type { Plan, PlanCompletion } from '../../../shared/plan';
import { type EngineOptions, MAX_TEXT_LENGTH, type OpResult, rejected } from './engine-types';
import { isOpen, sealPlan } from './seal';
import { closedError } from './step-lookup';
import { cleanText } from './titles';

const STATUS_FOR: Record<PlanCompletion['status'], Plan['status']> = {
  success: 'completed',
  partial_success: 'partial',
  failed: 'failed',
};

/**
 * Records a summary and closes the plan. Accepted on an active plan and on one that already
 * completed by itself (docs/contract.md §5), refused once closed explicitly. Taken as given: the
 * WBS dialect's planning_finalize closes a breakdown whose items are planned, not worked.
 */
export function completePlan(plan: Plan, completion: PlanCompletion, options: EngineOptions): OpResult {
  return close(plan, completion, options, false);
}

/**
 * complete_plan: Claude's claims are checked against the plan (docs/architecture.md "Goal
 * checks"): "success" while steps are neither completed nor skipped is recorded as partial
 * success with a note naming them, and the step counts are the plan's, so the card never shows a
 * count the plan contradicts. A success is due for the goal check once Claude's turn ends.
 */
export function completePlanAsClaimed(plan: Plan, claimed: PlanCompletion, options: EngineOptions): OpResult {
  return close(plan, claimed, options, true);
}

function close(plan: Plan, claimed: PlanCompletion, options: EngineOptions, checked: boolean): OpResult {
  if (!isOpen(plan)) return rejected(closedError(plan));
  const summary = cleanText(claimed.summary, MAX_TEXT_LENGTH);
  if (!summary) return rejected('The summary is empty; say in one or two sentences what was accomplished.');
  const completion = checked ? checkedClaims(plan, { ...claimed, summary }) : { ...claimed, summary };
  const due = checked && completion.status === 'success' && plan.status === 'active';
  const closed: Plan = { ...plan, status: STATUS_FOR[completion.status], completion, ...(due ? { goalCheckDue: true } : {}) };
  const downgraded = completion.status !== claimed.status ? ` (Claude claimed success, but ${unfinishedText(plan)})` : '';
  return sealPlan(closed, plan.version, options, `Completed plan: ${completion.status.replace('_', ' ')}${downgraded}`);
}

/** The steps that are neither completed nor skipped: a plan with any is not a success. */
export function unfinishedSteps(plan: Plan): Plan['steps'] {
  return plan.steps.filter((s) => s.status !== 'completed' && s.status !== 'skipped');
}

function unfinishedText(plan: Plan): string {
  const steps = unfinishedSteps(plan);
  const named = steps.slice(0, 5).map((s) => `step ${s.id} "${s.title}" is ${s.status.replace('_', ' ')}`);
  const more = steps.length > 5 ? ` and ${steps.length - 5} more are unfinished` : '';
  return `${named.join(', ')}${more}`;
}

/** Claude's completion with its claims made true to the plan: the counts and, when steps are unfinished, the status. */
function checkedClaims(plan: Plan, completion: PlanCompletion): PlanCompletion {
  const s = plan.summary;
  const counts = {
    ...(completion.stepsCompleted !== undefined ? { stepsCompleted: s.completed } : {}),
    ...(completion.stepsFailed !== undefined ? { stepsFailed: s.failed } : {}),
    ...(completion.stepsSkipped !== undefined ? { stepsSkipped: s.skipped } : {}),
  };
  if (completion.status !== 'success' || unfinishedSteps(plan).length === 0) return { ...completion, ...counts };
  const note = `Recorded as partial success: Claude reported success, but ${unfinishedText(plan)}.`;
  return { ...completion, ...counts, status: 'partial_success', issues: [note, ...completion.issues] };
}

/** The user aborted (docs/contract.md §3): the plan is cancelled; the reason lands on the running step. */
export function cancelPlan(plan: Plan, reason: string, options: EngineOptions): OpResult {
  if (plan.status !== 'active') return rejected(`Only an active plan can be cancelled; this one is ${plan.status}.`);
  const why = cleanText(reason, MAX_TEXT_LENGTH);
  const steps = plan.steps.map((s) => (s.status === 'in_progress' && why ? { ...s, reason: why } : s));
  return sealPlan({ ...plan, steps, status: 'cancelled' }, plan.version, options, `Cancelled plan${why ? `: ${why}` : ''}`);
}

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
 * complete_plan: records the model's summary and closes the plan. Accepted on an active plan and
 * on one that already completed by itself (docs/contract.md §5), refused once closed explicitly.
 */
export function completePlan(plan: Plan, completion: PlanCompletion, options: EngineOptions): OpResult {
  if (!isOpen(plan)) return rejected(closedError(plan));
  const summary = cleanText(completion.summary, MAX_TEXT_LENGTH);
  if (!summary) return rejected('The summary is empty; say in one or two sentences what was accomplished.');
  const closed: Plan = { ...plan, status: STATUS_FOR[completion.status], completion: { ...completion, summary } };
  return sealPlan(closed, plan.version, options, `Completed plan: ${completion.status.replace('_', ' ')}`);
}

/** The user aborted (docs/contract.md §3): the plan is cancelled; the reason lands on the running step. */
export function cancelPlan(plan: Plan, reason: string, options: EngineOptions): OpResult {
  if (plan.status !== 'active') return rejected(`Only an active plan can be cancelled; this one is ${plan.status}.`);
  const why = cleanText(reason, MAX_TEXT_LENGTH);
  const steps = plan.steps.map((s) => (s.status === 'in_progress' && why ? { ...s, reason: why } : s));
  return sealPlan({ ...plan, steps, status: 'cancelled' }, plan.version, options, `Cancelled plan${why ? `: ${why}` : ''}`);
}

import type { Plan } from './plan';

/**
 * Plan first applies like "Planning style" (docs/contract.md §5): a chat with a plan keeps the mode its
 * plan was made in (a plan-first plan carries its review state); a chat without one follows the
 * setting.
 */
export function inPlanFirstMode(plan: Plan | null | undefined, planFirstSetting: boolean): boolean {
  return plan ? plan.review !== undefined : planFirstSetting;
}

/**
 * Changing tools are held back: a plan-first chat without an active plan the user approved. Once
 * that plan is finished (or cancelled) new work waits for a new approved proposal again.
 */
export function changesHeldBack(plan: Plan | null | undefined, planFirstSetting: boolean): boolean {
  return inPlanFirstMode(plan, planFirstSetting) && !(plan?.status === 'active' && plan.review?.state === 'approved');
}

import type { Plan, PlanStep, StepToolCall } from '../../../shared/plan';
import { type EngineOptions, type OpResult, rejected } from './engine-types';
import { sealStepChange } from './seal-step';
import { findStep } from './step-lookup';

/** How many tool calls a step keeps, so a long run cannot grow a snapshot unbounded. */
const MAX_CALLS = 50;

/**
 * Records a tool call made while the step was in progress (honest progress: the panel lists what
 * happened at each step, not only what Claude said). A change of its own, with no transcript line.
 */
export function recordStepCall(plan: Plan, stepId: number, call: StepToolCall, options: EngineOptions): OpResult {
  if (plan.status !== 'active') return rejected(`The plan is ${plan.status}.`);
  const found = findStep(plan, stepId);
  if (!found.ok) return rejected(found.error);
  const calls = [...(found.step.calls ?? []), { ...call }].slice(-MAX_CALLS);
  return sealStepChange(plan, found.index, { ...found.step, calls }, options, `Recorded ${call.tool} on step ${stepId}`);
}

/**
 * A verification step is done only after something checked: at least one tool call made while
 * it was in progress. Null when the step may complete.
 */
export function verificationError(step: PlanStep): string | null {
  if (!step.isVerification || (step.calls?.length ?? 0) > 0) return null;
  return `Step ${step.id} "${step.title}" is a verification step: it can't be completed without at least one tool call made while it is in progress. Start it, run the check (the tests, a build, reading the result), then complete it.`;
}

/**
 * Steps of dialects without a verification flag (checklist, session) count as verification when
 * their title says they check something: "Verify …", "Validate …", "Test …", "Run the tests".
 */
const VERIFYING_TITLE = /^(verify|validate|confirm|test|run (the |all )?(unit |e2e |integration )?(tests?|test suite|checks?|linters?))\b/i;

export function looksLikeVerification(title: string): boolean {
  return VERIFYING_TITLE.test(title.trim());
}

import type { Plan } from '../../../shared/plan';

/** Shared vocabulary of the pure plan engine: options, limits and the result of every operation. */

export const MAX_TITLE_LENGTH = 500;
export const MAX_GOAL_LENGTH = 1000;
export const MAX_TEXT_LENGTH = 4000;
/**
 * Plans are capped so one runaway tool call cannot flood the panel, the log and every request;
 * 1,000 leaves room for a big WBS (docs/contract.md sets no cap; the benchmarks ask for 1,000 steps,
 * which a step change handles in well under 50 µs thanks to seal-step.ts).
 */
export const MAX_STEPS = 1000;
export const DEFAULT_MAX_IN_PROGRESS = 1;

export interface EngineOptions {
  /** At most this many steps may be in_progress at once (docs/contract.md §2, default 1). */
  maxInProgress: number;
  now: () => Date;
}

/**
 * Every operation is `(plan, input) => OpResult`. On success `plan` is a new frozen snapshot, or
 * the very same object when the call changed nothing (then no version bump and no event).
 * On failure `error` tells the model how to fix its call; the plan is untouched.
 */
export type OpResult = { ok: true; plan: Plan; change: string } | { ok: false; error: string };

export const rejected = (error: string): OpResult => ({ ok: false, error });
export const unchanged = (plan: Plan): OpResult => ({ ok: true, plan, change: '' });

export function defaultEngineOptions(partial: Partial<EngineOptions> = {}): EngineOptions {
  return { maxInProgress: partial.maxInProgress ?? DEFAULT_MAX_IN_PROGRESS, now: partial.now ?? (() => new Date()) };
}

import { z } from 'zod';

/**
 * Extended thinking as the contract sees it: what a model accepts (from the Models API's
 * `capabilities`, or Waypoint's table for models it does not describe) and the levels of effort.
 */

export const ThinkingEffort = z.enum(['low', 'medium', 'high', 'xhigh', 'max']);
export type ThinkingEffort = z.infer<typeof ThinkingEffort>;

export const ModelThinking = z.object({
  /** `thinking: {type: "adaptive"}`: Claude decides how much to think, steered by effort. */
  adaptive: z.boolean(),
  /** `thinking: {type: "enabled", budget_tokens}`: a fixed budget. */
  enabled: z.boolean(),
  /** The effort levels the model takes (`output_config.effort`); empty when it takes none. */
  efforts: z.array(ThinkingEffort),
});
export type ModelThinking = z.infer<typeof ModelThinking>;

/** The API's floor for `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;
/** The highest budget Settings takes for any model. */
export const MAX_THINKING_BUDGET = 63_000;
/** The smallest reply room a request leaves under a budget when the model's output cap squeezes them. */
export const MIN_REPLY_ROOM = 1024;

/**
 * The highest budget the model with this output cap (max_tokens) can use: a request leaves room
 * for the reply, so a larger one would be lowered without a word (agent/model/thinking-params.ts).
 */
export function thinkingBudgetCap(outputCap: number | undefined): number {
  if (!outputCap) return MAX_THINKING_BUDGET;
  return Math.max(MIN_THINKING_BUDGET, Math.min(MAX_THINKING_BUDGET, outputCap - MIN_REPLY_ROOM));
}

export const EFFORT_LABELS: Record<ThinkingEffort, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  xhigh: 'Extra high',
  max: 'Max',
};

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

export const EFFORT_LABELS: Record<ThinkingEffort, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  xhigh: 'Extra high',
  max: 'Max',
};

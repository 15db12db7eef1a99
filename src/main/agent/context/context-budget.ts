/**
 * How much of the model's window a request may fill. The reply needs `max_tokens` of it (the
 * API refuses a prompt that leaves less), and a small share stays free for what the measure of
 * the request may have missed.
 */

/** Share of the window kept free beyond max_tokens. */
export const SAFETY_SHARE = 0.02;
/** After compacting, the request aims at this share of its budget, so compaction stays rare. */
export const TARGET_SHARE = 0.5;

/** Input tokens a request with this max_tokens may carry in a window of this size. */
export function inputBudget(contextWindow: number, maxTokens: number): number {
  return Math.max(0, contextWindow - maxTokens - Math.ceil(contextWindow * SAFETY_SHARE));
}

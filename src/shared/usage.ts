import { z } from 'zod';

/** Token usage as the Messages API reports it, summed, with its price for the chosen model. */
export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
  /** Server-side web searches (usage.server_tool_use.web_search_requests), billed per search; absent when none. */
  webSearches: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof Usage>;

/** "$0.04" for the header; tiny amounts are not shown as a misleading "$0.00". */
export function formatUsd(amount: number): string {
  if (amount <= 0) return '$0.00';
  if (amount < 0.01) return '<$0.01';
  return `$${amount.toFixed(2)}`;
}

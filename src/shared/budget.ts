import { z } from 'zod';

/**
 * Plan budgets (docs/contract.md §9 "Budget"): a plan's limit in dollars and in minutes, the
 * spend shown against it, and the answers to "Budget reached". Shared by main (the check before
 * each request, the plan engine) and the renderer (the fields that take a figure).
 */

/** The most a budget may be: a typo's extra zeros are refused rather than taken as "no limit". */
export const MAX_BUDGET_USD = 100_000;
export const MAX_BUDGET_MINUTES = 10_000;

/** A dollar figure for a budget: a positive, finite number. 0, negative or not a number is refused with words. */
export const BudgetUsd = z
  .number({ error: 'The budget must be a number of dollars, e.g. 2.50.' })
  .refine((n) => Number.isFinite(n), { error: 'The budget must be a number of dollars, e.g. 2.50.' })
  .refine((n) => n > 0, { error: 'The budget must be more than $0.' })
  .refine((n) => n <= MAX_BUDGET_USD, { error: `The budget can be at most $${MAX_BUDGET_USD.toLocaleString('en-US')}.` });

export const BudgetMinutes = z
  .number({ error: 'The time must be a number of minutes, e.g. 30.' })
  .refine((n) => Number.isFinite(n), { error: 'The time must be a number of minutes, e.g. 30.' })
  .refine((n) => n > 0, { error: 'The time must be more than 0 minutes.' })
  .refine((n) => n <= MAX_BUDGET_MINUTES, { error: `The time can be at most ${MAX_BUDGET_MINUTES.toLocaleString('en-US')} minutes.` });

/** Why a run stopped at its budget: the dollars it would pass, or the minutes that passed. */
export const BudgetReached = z.object({
  /** The request's id: an answer names it, so a stale answer changes nothing. */
  id: z.string().min(1).max(100),
  at: z.string(),
  limit: z.enum(['usd', 'time']),
  spentUsd: z.number().nonnegative(),
  /** What the request the run did not send would have cost, by its estimate. */
  estimateUsd: z.number().nonnegative(),
  elapsedMinutes: z.number().nonnegative(),
});
export type BudgetReached = z.infer<typeof BudgetReached>;

/** A plan's budget, part of the plan (so of its log): the limits, and the stop it awaits an answer to. */
export const PlanBudget = z.object({
  usd: BudgetUsd.optional(),
  minutes: BudgetMinutes.optional(),
  /** The run stopped here: the plan awaits "Extend budget" or "End plan". */
  reached: BudgetReached.optional(),
});
export type PlanBudget = z.infer<typeof PlanBudget>;

/** "Extend budget" (the plan's budget once more, or the figure typed) or "End plan". */
export const BudgetAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('extend'), usd: BudgetUsd.optional() }).strict(),
  z.object({ kind: z.literal('end') }).strict(),
]);
export type BudgetAnswer = z.infer<typeof BudgetAnswer>;

/** The user's budget for this plan from the panel's "Budget" ("Save budget"). */
export const PlanBudgetChange = z.object({ planId: z.string().min(1).max(100), usd: BudgetUsd }).strict();
export type PlanBudgetChange = z.infer<typeof PlanBudgetChange>;

/**
 * A figure typed in a budget field: empty is "none" (null), else the number, or the reason it is
 * refused. The same words in Settings, the panel and "New budget (USD)".
 */
export function parseBudgetField(text: string, kind: 'usd' | 'minutes'): { ok: true; value: number | null } | { ok: false; error: string } {
  const trimmed = text.trim().replace(/^\$/, '');
  if (trimmed === '') return { ok: true, value: null };
  // Number('') and Number(' ') are 0, Number('1e3') is 1000: only plain decimals are figures here.
  const value = /^[-+]?\d*\.?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  const parsed = (kind === 'usd' ? BudgetUsd : BudgetMinutes).safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? 'Not a valid figure.' };
}

/** A new plan's budget from Settings' "Budget per plan (USD)" and "Time per plan (minutes)" (null: none). */
export function budgetDefaultsOf(settings: { planBudgetUsd: number | null; planBudgetMinutes: number | null }): Pick<PlanBudget, 'usd' | 'minutes'> {
  const { planBudgetUsd: usd, planBudgetMinutes: minutes } = settings;
  return { ...(usd !== null ? { usd } : {}), ...(minutes !== null ? { minutes } : {}) };
}

/** What "Budget reached" shows and answers: the stop and the plan's limits when it stopped. */
export interface BudgetPrompt {
  sessionId: string;
  planId: string;
  /** The id an answer names (`answerBudget`'s requestId). */
  requestId: string;
  reached: BudgetReached;
  usd?: number;
  minutes?: number;
}

/** The "Budget reached" a chat's plan awaits an answer to, or null. */
export function budgetPromptOf(sessionId: string, plan: { id: string; status: string; budget?: PlanBudget } | null | undefined): BudgetPrompt | null {
  const reached = plan?.status === 'active' ? plan.budget?.reached : undefined;
  if (!plan || !reached) return null;
  return { sessionId, planId: plan.id, requestId: reached.id, reached, ...(plan.budget?.usd !== undefined ? { usd: plan.budget.usd } : {}), ...(plan.budget?.minutes !== undefined ? { minutes: plan.budget.minutes } : {}) };
}

/** What "Budget reached" asks, in a line: the "Needs you" dialog's item and a notification's body. */
export function budgetAskedText(prompt: BudgetPrompt): string {
  const { reached } = prompt;
  if (reached.limit === 'time') return `Budget reached: ${Math.round(reached.elapsedMinutes)} of ${prompt.minutes ?? 0} minutes. Extend the budget or end the plan.`;
  const spent = prompt.usd !== undefined ? spendOfBudget(reached.spentUsd, prompt.usd) : `$${reached.spentUsd.toFixed(2)}`;
  return `Budget reached: spent ${spent}. Extend the budget or end the plan.`;
}

/** Requests a plan without an estimate of its tool calls is taken to need per step (start, the work, complete). */
export const REQUESTS_PER_STEP = 3;

/**
 * "Estimated cost" of a proposed plan, before approval: its estimated tool calls (create_plan's
 * `estimated_tool_calls`, else 3 per step), one request each, at the chat's measured cost per
 * request so far (its usage over its requests). Null while the chat has no measured request.
 */
export function estimatePlanCostUsd(plan: { estimatedToolCalls?: number; steps: readonly unknown[] }, chat: { usage?: { costUsd: number }; requestCount?: number }): number | null {
  if (!chat.usage || !chat.requestCount) return null;
  const requests = plan.estimatedToolCalls ?? plan.steps.length * REQUESTS_PER_STEP;
  return requests * (chat.usage.costUsd / chat.requestCount);
}

/** "$1.20 of $5.00": the plan's spend against its budget, as the panel shows it. */
export function spendOfBudget(spentUsd: number, budgetUsd: number): string {
  return `$${spentUsd.toFixed(2)} of $${budgetUsd.toFixed(2)}`;
}

/** "Extend budget" without a figure: the plan's budget once more on top of what it allows now. */
export function extendedBudget(currentUsd: number | undefined, answer: Extract<BudgetAnswer, { kind: 'extend' }>, spentUsd: number): number {
  if (answer.usd !== undefined) return answer.usd;
  const base = currentUsd ?? spentUsd;
  return Math.min(MAX_BUDGET_USD, base + base);
}

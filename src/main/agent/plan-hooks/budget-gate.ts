import { randomUUID } from 'node:crypto';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { spendOfBudget, type BudgetReached, type PlanBudget } from '../../../shared/budget';
import type { Plan } from '../../../shared/plan';
import type { SessionSummary } from '../../../shared/transcript';
import type { ChatSession } from '../../chats/chat-session';
import { noticeItem } from '../../common/transcript-items';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import { estimateMessage } from '../context/token-estimate';
import { priceFor } from '../model/pricing';
import { planSpend } from '../model/usage-meter';
import type { Pause } from '../pauses/pause-kind';

/**
 * The plan's budget, checked before each request of its run (docs/architecture.md "Plan
 * budgets"): what the plan has spent plus this request's estimated cost against its dollars, and
 * the time since it began against its minutes. A request that would pass is not sent: the run
 * ends at a "Budget reached" pause (the one pause model; budget-kind.ts answers it).
 */

/** How many of the chat's latest replies suggest the next one's length. */
export const RECENT_REPLIES = 5;
/** A chat with no reply yet: a short reply with a tool call or two. */
export const FIRST_REPLY_TOKENS = 800;

/**
 * The output the next reply will likely have: the mean of the chat's latest replies (their
 * tokens as token-estimate.ts counts them, thinking included). Not max_tokens: that cap is far
 * above a typical reply and would make small budgets unusable.
 */
export function expectedOutputTokens(history: readonly MessageParam[]): number {
  const replies: number[] = [];
  for (let i = history.length - 1; i >= 0 && replies.length < RECENT_REPLIES; i--) {
    const message = history[i]!;
    if (message.role === 'assistant') replies.push(estimateMessage(message));
  }
  if (replies.length === 0) return FIRST_REPLY_TOKENS;
  return replies.reduce((sum, n) => sum + n, 0) / replies.length;
}

/** A request's estimated cost: its input at the model's input price plus the expected reply at the output price. */
export function estimateRequestUsd(model: string, inputTokens: number, outputTokens: number): number {
  const price = priceFor(model);
  return (inputTokens * price.inputPerMTok + outputTokens * price.outputPerMTok) / 1_000_000;
}

/** Which limit a request would pass, or null when it may be sent. Pure: the arithmetic the property tests check. */
export function budgetVerdict(budget: Pick<PlanBudget, 'usd' | 'minutes'> | undefined, spentUsd: number, estimateUsd: number, elapsedMinutes: number): BudgetReached['limit'] | null {
  if (!budget) return null;
  if (budget.usd !== undefined && spentUsd + estimateUsd > budget.usd) return 'usd';
  if (budget.minutes !== undefined && elapsedMinutes >= budget.minutes) return 'time';
  return null;
}

export interface BudgetGateDeps {
  session: ChatSession;
  plans: Pick<PlanServiceApi, 'getPlan' | 'budgetReached'>;
  /** A sub-agent's run: its requests count against the chat's plan, whose spend is in the chat's summary. */
  agent?: { chatId: string; chatSummary(): SessionSummary };
  now?: () => Date;
}

/** Minutes since the plan began (its budget's clock). */
export function elapsedMinutes(plan: Plan, now: Date): number {
  return Math.max(0, (now.getTime() - Date.parse(plan.createdAt)) / 60_000);
}

/**
 * The check before one request of the chat's run (the conversation's, a compaction's summary, a
 * sub-agent's: each calls this with its own model and input size). Null: send it. A Pause: the
 * plan now records the stop (a plan change, so it is in the log), and the run must end there
 * with these events; nothing is sent. A chat with no active plan, or a plan with no budget,
 * always passes.
 */
export function checkPlanBudget(deps: BudgetGateDeps, model: string, inputTokens: number): Pause | null {
  if (deps.agent) return checkForSubAgent(deps, deps.agent, model, inputTokens);
  const sessionId = deps.session.summary.id;
  const plan = deps.plans.getPlan(sessionId);
  if (!plan || plan.status !== 'active' || !plan.budget) return null;
  const now = deps.now?.() ?? new Date();
  const spentUsd = planSpend(deps.session.summary, plan.id);
  const estimateUsd = estimateRequestUsd(model, inputTokens, expectedOutputTokens(deps.session.history));
  const elapsed = elapsedMinutes(plan, now);
  const limit = plan.budget.reached ? plan.budget.reached.limit : budgetVerdict(plan.budget, spentUsd, estimateUsd, elapsed);
  if (!limit) return null;
  const reached: BudgetReached = plan.budget.reached ?? { id: randomUUID(), at: now.toISOString(), limit, spentUsd, estimateUsd, elapsedMinutes: elapsed };
  if (!plan.budget.reached && !deps.plans.budgetReached(sessionId, reached).ok) return null;
  return budgetPause(sessionId, plan.budget, reached);
}

/**
 * A sub-agent's request, against the chat's plan (its own plan has no budget of its own): the
 * chat's spend, which the tree's requests all count in, plus this request's estimate. Over it, the
 * sub-agent ends at once (a sub-agent never pauses) and records no stop: the parent's next request
 * meets the same check and the chat pauses there, as for its own requests.
 */
function checkForSubAgent(deps: BudgetGateDeps, agent: NonNullable<BudgetGateDeps['agent']>, model: string, inputTokens: number): Pause | null {
  const plan = deps.plans.getPlan(agent.chatId);
  if (!plan || plan.status !== 'active' || !plan.budget) return null;
  const spentUsd = planSpend(agent.chatSummary(), plan.id);
  const estimateUsd = estimateRequestUsd(model, inputTokens, expectedOutputTokens(deps.session.history));
  const limit = plan.budget.reached?.limit ?? budgetVerdict(plan.budget, spentUsd, estimateUsd, elapsedMinutes(plan, deps.now?.() ?? new Date()));
  if (!limit) return null;
  const text =
    limit === 'time'
      ? `The chat's plan reached its time budget (${plan.budget.minutes} minutes), so this sub-agent was ended before its next request.`
      : `The chat's plan reached its budget (${spendOfBudget(spentUsd, plan.budget.usd ?? 0)} spent; the next request, about $${estimateUsd.toFixed(2)}, would pass it), so this sub-agent was ended before sending it.`;
  return { events: [{ type: 'transcript_item', sessionId: deps.session.summary.id, item: noticeItem('warning', text, 'budget_reached') }], budgetOfChat: true };
}

function budgetPause(sessionId: string, budget: PlanBudget, reached: BudgetReached): Pause {
  const text =
    reached.limit === 'time'
      ? `Budget reached: this plan has run for ${Math.round(reached.elapsedMinutes)} of its ${budget.minutes} minutes, so Waypoint paused it before the next request. Extend the budget or end the plan.`
      : `Budget reached: ${spendOfBudget(reached.spentUsd, budget.usd ?? 0)} spent, and the next request (about $${reached.estimateUsd.toFixed(2)}) would pass it, so Waypoint paused the plan before sending it. Extend the budget or end the plan.`;
  return {
    events: [
      { type: 'transcript_item', sessionId, item: noticeItem('warning', text, 'budget_reached') },
      { type: 'run_state', sessionId, state: { status: 'idle' } },
    ],
  };
}

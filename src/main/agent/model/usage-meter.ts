import type { Usage as ApiUsage } from '@anthropic-ai/sdk/resources/messages';
import type { Plan } from '../../../shared/plan';
import type { SessionSummary } from '../../../shared/transcript';
import type { Usage } from '../../../shared/usage';
import type { UsageRecord } from '../../store/chat-log-ports';
import { costUsd } from './pricing';

export type { UsageRecord };


/** The API's usage object as our Usage, priced for the model. */
export function usageOf(model: string, api: Pick<ApiUsage, 'input_tokens' | 'output_tokens'> & Partial<ApiUsage>): Usage {
  const tokens = {
    inputTokens: api.input_tokens ?? 0,
    outputTokens: api.output_tokens ?? 0,
    cacheReadTokens: api.cache_read_input_tokens ?? 0,
    cacheWriteTokens: api.cache_creation_input_tokens ?? 0,
  };
  const webSearches = api.server_tool_use?.web_search_requests ?? 0;
  return { ...tokens, costUsd: costUsd(model, { ...tokens, webSearches }), ...(webSearches ? { webSearches } : {}) };
}

export function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return { ...b };
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: a.costUsd + b.costUsd,
    ...(a.webSearches || b.webSearches ? { webSearches: (a.webSearches ?? 0) + (b.webSearches ?? 0) } : {}),
  };
}

/** The step a request works on: the one in progress while the plan is active. */
export function stepInProgress(plan: Plan | null): UsageRecord['step'] {
  if (!plan || plan.status !== 'active') return null;
  const step = plan.steps.find((s) => s.status === 'in_progress');
  return step ? { planId: plan.id, stepId: step.id } : null;
}

/** The plan whose budget a request spends: the active one (a plan awaiting approval spends too: its exploring is its cost). */
export function activePlanId(plan: Plan | null): string | null {
  return plan && plan.status === 'active' ? plan.id : null;
}

/** What a plan has spent so far (every request sent while it was active). */
export function planSpend(summary: SessionSummary, planId: string): number {
  return summary.planCosts?.[planId] ?? 0;
}

export const stepCostKey = (planId: string, stepId: number): string => `${planId}#${stepId}`;

/** The summary after one more request: running usage and cost, and the step's share. */
export function meterRequest(summary: SessionSummary, record: UsageRecord): SessionSummary {
  const stepCosts = { ...(summary.stepCosts ?? {}) };
  if (record.step) {
    const key = stepCostKey(record.step.planId, record.step.stepId);
    stepCosts[key] = (stepCosts[key] ?? 0) + record.usage.costUsd;
  }
  const planCosts = { ...(summary.planCosts ?? {}) };
  if (record.planId) planCosts[record.planId] = (planCosts[record.planId] ?? 0) + record.usage.costUsd;
  // Counted from a chat's first request only: one metered before has a usage the count would not match.
  const counted = summary.requestCount !== undefined || !summary.usage;
  return {
    ...summary,
    usage: addUsage(summary.usage, record.usage),
    ...(counted ? { requestCount: (summary.requestCount ?? 0) + 1 } : {}),
    ...(record.step || summary.stepCosts ? { stepCosts } : {}),
    ...(record.planId || summary.planCosts ? { planCosts } : {}),
  };
}

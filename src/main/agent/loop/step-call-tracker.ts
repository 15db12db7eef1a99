import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import { nowIso } from '../../common/transcript-items';
import type { ToolRunContext } from './tool-executor';
import { usageOf } from '../model/usage-meter';

/**
 * Honest progress: each tool call made while a step is in progress is listed on that step, with
 * its time and its share of the cost of the request that asked for it (split evenly among that
 * request's `calls` non-planning tool calls — the ones listed — so the shares add up to the request).
 * Calls run after an answer (message null: the request was the earlier run's, which ended at the
 * question) are listed without a share: this run does not know that request's cost.
 */
export function stepCallTracker(plans: PlanServiceApi, sessionId: string, message: Message | null, calls: number): NonNullable<ToolRunContext['track']> {
  const share = message && calls > 0 ? usageOf(message.model, message.usage).costUsd / calls : 0;
  return ({ tool, summary, toolUseId }) => {
    const plan = plans.getPlan(sessionId);
    const step = plan?.status === 'active' ? plan.steps.find((s) => s.status === 'in_progress') : undefined;
    if (!step) return () => undefined;
    const at = nowIso();
    return ({ durationMs, ok }) => {
      plans.recordToolCall(sessionId, step.id, { at, tool: tool.name, summary, durationMs, ok, costUsd: share, toolUseId });
    };
  };
}

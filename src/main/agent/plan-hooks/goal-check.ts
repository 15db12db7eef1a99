import type Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '@anthropic-ai/sdk/resources/messages';
import type { Plan } from '../../../shared/plan';
import type { RunState } from '../../../shared/transcript';
import type { ChatSession } from '../../chats/chat-session';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import type { UsageRecord } from '../../store/chat-log-ports';
import { describeFailure } from '../model/api-error-map';
import type { ApiRetryPolicy } from '../model/api-retry-policy';
import { requestModelTurn } from '../model/model-turn';
import { goalCheckRequest, readReport } from './goal-check-request';
import { goalCheckDue, judge } from './goal-check-rounds';

/**
 * The goal check (docs/architecture.md "Goal checks"): once a plan has completed and Claude's
 * turn has ended, one independent request judges whether the goal was met. The verdict is a plan
 * change (so it is in the chat's log, and a completion is never checked twice, restart or not);
 * "not met" reopens the plan with a "Fix: …" step per finding and tells Claude in a new user message.
 */

export interface GoalCheckDeps {
  session: ChatSession;
  client: Anthropic;
  apiKey: string;
  signal: AbortSignal;
  plans: PlanServiceApi;
  /** Settings "Goal checks" and the chat's model, read now. */
  rounds: number;
  model: string;
  maxOutputTokens: number;
  retryPolicy: ApiRetryPolicy;
  stallTimeoutMs: number;
  setState(state: RunState): void;
  /** The check's usage, counted on the plan (its last step) so the plan's spend includes it. */
  onUsage(usage: Usage, model: string, step: UsageRecord['step']): void;
}

/** 'carry_on': the plan reopened and Claude was told; the run asks Claude again. 'done': the turn is over. */
export async function checkGoalIfDue(deps: GoalCheckDeps): Promise<'carry_on' | 'done'> {
  const sessionId = deps.session.summary.id;
  const plan = deps.plans.getPlan(sessionId);
  if (deps.signal.aborted || !goalCheckDue(plan, deps.rounds)) return 'done';
  const request = goalCheckRequest(plan, deps.model, deps.maxOutputTokens, (id) => deps.session.toolCall(id));
  const quiet = { append() {}, markStale() {}, dropStaleText() {} };
  const outcome = await requestModelTurn(request, {
    client: deps.client,
    signal: deps.signal,
    stallTimeoutMs: deps.stallTimeoutMs,
    retryPolicy: deps.retryPolicy,
    setState: deps.setState,
    reply: quiet,
  });
  // Stopped: nothing is recorded, so the completion is still due when the chat goes on.
  if (outcome.kind === 'stopped') return 'done';
  if (outcome.kind === 'failed') {
    const error = `The check's request failed: ${describeFailure(outcome.error, deps.apiKey, outcome.retries).text}`;
    deps.plans.recordGoalCheck(sessionId, { outcome: 'failed', findings: [], error });
    return 'done';
  }
  deps.onUsage(outcome.message.usage, outcome.message.model, costsOn(plan));
  const result = judge(readReport(outcome.message.content), plan.goalChecks?.at(-1));
  if (!deps.plans.recordGoalCheck(sessionId, result).ok || !result.reopened) return 'done';
  if (!deps.plans.reopenWithFixes(sessionId, result.findings).ok) return 'done';
  deps.session.appendUser([{ type: 'text', text: toldClaude(result.findings) }]);
  return 'carry_on';
}

/** The step the check's cost is counted on: the plan's last, so it is in the plan's spend. */
function costsOn(plan: Plan): UsageRecord['step'] {
  const last = plan.steps.at(-1);
  return last ? { planId: plan.id, stepId: last.id } : null;
}

/** The new user message that tells Claude what the check found. */
export function toldClaude(findings: readonly string[]): string {
  const list = findings.map((f) => `- ${f}`).join('\n');
  return `Waypoint's goal check found the goal not met:\n${list}\n\nThe plan is reopened with a "Fix: …" step for each finding. Work through them (start_step, do the fix, complete_step with its result), then complete the plan.`;
}

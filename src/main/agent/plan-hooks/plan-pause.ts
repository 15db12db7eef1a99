import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { isAwaitingApproval, type Plan } from '../../../shared/plan';
import { isUnfinished, stepsLeft, stepsLeftText } from '../../../shared/plan-pause';
import type { NoticeItem, SessionSummary } from '../../../shared/transcript';
import { planProgress } from '../../../shared/plan-change';
import { noticeItem } from '../../common/transcript-items';

/**
 * Whether a run that just ended left the plan paused (docs/contract.md §5): the turn ended by end_turn
 * (Claude's reply is the last message), or was cut short — the user's Stop, or the "Max model
 * turns" limit, where the history ends with tool results — with the plan unfinished. A run that
 * failed on the API ("Retry now") did not end a turn.
 */
export function pausedAfterRun(plan: Plan | null, history: readonly MessageParam[], cutShort: boolean): boolean {
  // A proposal is not paused: it waits for the user's approval (plan first).
  return isUnfinished(plan) && !isAwaitingApproval(plan) && (cutShort || history.at(-1)?.role === 'assistant');
}

/** The chat's summary with its plan progress and pause flag. */
export function withPlanProgress(summary: SessionSummary, plan: Plan | null, paused: boolean): SessionSummary {
  if (!plan) return summary;
  return { ...summary, planProgress: { ...planProgress(plan), ...(paused && isUnfinished(plan) ? { paused: true } : {}) } };
}

/** The trace a Stop leaves in the transcript, saying how to go on when a plan waits. */
export function stoppedNotice(plan: Plan | null, paused: boolean): NoticeItem {
  const rest = isAwaitingApproval(plan)
    ? ' The proposed plan waits for you: approve it, or ask Claude to revise it.'
    : paused && plan
      ? ` The plan is paused with ${stepsLeftText(stepsLeft(plan))}: press "Continue plan", or write a message to go on.`
      : '';
  return noticeItem('info', `You stopped Claude.${rest}`, 'stopped');
}

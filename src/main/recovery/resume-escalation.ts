import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { EscalationAnswer, EscalationRequest } from '../../shared/prompts';
import { appendUser, unansweredToolUses } from '../agent/history';
import { noticeItem } from '../agent/transcript-items';
import { applyEscalationAnswer } from './escalation-answer';
import type { RecoveryPlans } from './recovery-types';

export const NOT_RUN_AFTER_RESTART = 'Not run: Waypoint was restarted while this turn waited for the user.';

export interface ResumeArgs {
  sessionId: string;
  /** The escalation kept in the session state (restored from the session log after a restart). */
  pending: EscalationRequest | null;
  history: MessageParam[];
  plans: RecoveryPlans;
  requestId: string;
  answer: EscalationAnswer;
  publish(event: WaypointEvent): void;
}

/**
 * Answers an escalation no live run waits on: the app restarted while it was pending. The answer
 * is applied to the plan as in a live run, the held tool_use gets its tool_result (and any other
 * open tool_use a "not run" one), and the caller starts a new run unless the plan was aborted.
 */
export function resumeEscalation(args: ResumeArgs): 'refused' | 'continue' | 'halted' {
  const { pending, sessionId } = args;
  if (!pending || pending.id !== args.requestId || pending.sessionId !== sessionId) return 'refused';
  args.publish({ type: 'escalation_resolved', sessionId, requestId: pending.id, answer: args.answer.kind });
  const applied = applyEscalationAnswer(args.plans, pending, args.answer);
  if (applied.note) args.publish({ type: 'transcript_item', sessionId, item: noticeItem('info', applied.note, `escalation_${args.answer.kind}`) });
  const results: ToolResultBlockParam[] = unansweredToolUses(args.history).map((id) => ({
    type: 'tool_result',
    tool_use_id: id,
    content: id === pending.toolUseId ? applied.text : NOT_RUN_AFTER_RESTART,
    is_error: true,
  }));
  appendUser(args.history, results);
  return applied.halt ? 'halted' : 'continue';
}

import type { InboxReply, InboxRequest } from '../store/chat-inbox';
import { noticeItem } from '../common/transcript-items';
import type { NoticeItem } from '../../shared/transcript';
import type { UserEdit } from '../../shared/plan-edit';
import type { ReviewDecision } from '../../shared/plan-review';

/** What carrying out another process's requests needs: the chats of record (sessions/chats.ts) and Stop of a run. */
export interface ForwardedRequestTarget {
  stop(sessionId: string): { stopped: boolean };
  editPlan(sessionId: string, request: { planId: string; version: number; edit: UserEdit }): unknown;
  addNotice(sessionId: string, item: NoticeItem): void;
  /** The one answer path of the questions runs pause on (agent/pauses/prompt-answers.ts). */
  answerPause(sessionId: string, kind: 'approval' | 'escalation' | 'question' | 'budget', requestId: string, answer: unknown): { accepted: boolean };
  reviewPlan(sessionId: string, request: { planId: string; version: number; decision: ReviewDecision }): { itemId: string };
  retryRun(sessionId: string): { started: boolean };
}

/**
 * Carries out a request another Waypoint process sent to the chat this one writes (chat-inbox.ts).
 * A plan edit is applied as the user's; one the plan's rules refuse is said in the chat, where the
 * user who made it looks (the window follows this process's log), and nothing changes.
 * Stop and answers are answered: the sender tells the user what really happened (an answer that
 * does not fit the question comes back with the reason, as in the writer's own window).
 */
export function carryOut(target: ForwardedRequestTarget, sessionId: string, request: InboxRequest, from: string): InboxReply | void {
  switch (request.kind) {
    case 'stop': {
      let stopped: boolean;
      try {
        stopped = target.stop(sessionId).stopped;
      } catch (error) {
        return { done: false, reason: (error as Error).message };
      }
      return stopped ? { done: true } : { done: false, reason: 'Nothing was running in this chat.' };
    }
    case 'plan_edit':
      try {
        target.editPlan(sessionId, { planId: request.planId, version: request.version, edit: request.edit });
      } catch (error) {
        target.addNotice(sessionId, noticeItem('warning', `Your plan edit (from ${from}) was not applied: ${(error as Error).message}`, 'plan_edit_refused'));
      }
      return;
    case 'answer':
      try {
        return target.answerPause(sessionId, request.prompt, request.requestId, request.answer).accepted ? { done: true } : { done: false };
      } catch (error) {
        return { done: false, reason: (error as Error).message };
      }
    case 'plan_review':
      try {
        return { done: true, itemId: target.reviewPlan(sessionId, { planId: request.planId, version: request.version, decision: request.decision }).itemId };
      } catch (error) {
        return { done: false, reason: (error as Error).message };
      }
    case 'retry_run':
      try {
        return { done: target.retryRun(sessionId).started };
      } catch (error) {
        return { done: false, reason: (error as Error).message };
      }
  }
}

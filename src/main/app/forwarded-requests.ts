import type { InboxReply, InboxRequest } from '../store/chat-inbox';
import { noticeItem } from '../common/transcript-items';
import type { NoticeItem } from '../../shared/transcript';
import type { UserEdit } from '../../shared/plan-edit';

/** What carrying out another process's requests needs of the chat service (agent/chat-service.ts). */
export interface ForwardedRequestTarget {
  stop(sessionId: string): { stopped: boolean };
  editPlan(sessionId: string, request: { planId: string; version: number; edit: UserEdit }): unknown;
  addNotice(sessionId: string, item: NoticeItem): void;
}

/**
 * Carries out a request another Waypoint process sent to the chat this one writes (chat-inbox.ts).
 * A plan edit is applied as the user's; one the plan's rules refuse is said in the chat, where the
 * user who made it looks (the window follows this process's log), and nothing changes.
 * Stop is answered: the sender tells the user what really happened.
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
  }
}

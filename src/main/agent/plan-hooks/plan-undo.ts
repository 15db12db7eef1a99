import type { CallOutput } from '../../../shared/contract';
import type { ChatService } from '../loop/chat-service';
import type { Chats } from '../../chats/chats';
import type { PlanService } from '../../plan/plan-service';
import type { RecoveryService } from '../../recovery/recovery-service';
import { UserFacingError } from '../../common/errors';

export interface PlanUndoDeps {
  chats: Pick<Chats, 'getSession'>;
  chat: Pick<ChatService, 'answerEscalation'>;
  recovery: Pick<RecoveryService, 'undo'>;
  plans: Pick<PlanService, 'getPlan' | 'markUndone'>;
}

/**
 * "Undo plan": puts back the files the chat's plan changed, then marks the plan undone, so it no
 * longer shows steps as done (issue 12, item 9). Not while Claude works on it: its next write
 * would undo the undo. A stuck step's question is answered "Abort plan" first.
 */
export async function undoPlan(deps: PlanUndoDeps, sessionId: string, overwriteChangedOutside: boolean): Promise<CallOutput<'undoPlan'>> {
  const chat = deps.chats.getSession(sessionId);
  const { status } = chat.runState;
  if (status === 'running' || status === 'retrying' || status === 'awaiting_approval' || status === 'awaiting_question') {
    throw new UserFacingError('busy', 'Claude is still working on this plan. Press Stop (or wait until it finishes), then Undo plan.');
  }
  if (chat.pendingEscalation) deps.chat.answerEscalation(sessionId, chat.pendingEscalation.id, { kind: 'abort' });
  const result = await deps.recovery.undo(sessionId, chat.session.workspace ?? null, overwriteChangedOutside);
  const plan = deps.plans.getPlan(sessionId);
  const changed = result.restored.length + result.deleted.length + result.skipped.length > 0;
  if (plan && (changed || !plan.undone)) deps.plans.markUndone(sessionId, result);
  return result;
}

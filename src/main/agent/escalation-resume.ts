import type { EscalationAnswer, EscalationRequest } from '../../shared/prompts';
import { noticeItem } from '../common/transcript-items';
import { applyEscalationAnswer } from '../recovery/escalation-answer';
import type { RecoveryPlans } from '../recovery/recovery-types';
import type { ResumablePrompt } from './prompt-resume';

/**
 * An escalation answered after a restart: the answer is applied to the plan as in a live run
 * (recovery/escalation-answer.ts); the caller starts a new run unless the plan was aborted.
 */
export function escalationAfterRestart(plans: RecoveryPlans): ResumablePrompt<EscalationRequest, EscalationAnswer> {
  return {
    pending: (session) => session.pendingEscalation,
    canResume: () => true,
    async settle({ session, request, answer, publish }) {
      const sessionId = session.summary.id;
      publish({ type: 'escalation_resolved', sessionId, requestId: request.id, answer: answer.kind });
      const applied = applyEscalationAnswer(plans, request, answer);
      if (applied.note) publish({ type: 'transcript_item', sessionId, item: noticeItem('info', applied.note, `escalation_${answer.kind}`) });
      return { content: applied.text, isError: true, halt: applied.halt };
    },
  };
}

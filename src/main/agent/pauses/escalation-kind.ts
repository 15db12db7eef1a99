import { EscalationAnswer, type EscalationRequest } from '../../../shared/prompts';
import { noticeItem } from '../../common/transcript-items';
import { applyEscalationAnswer } from '../../recovery/escalation-answer';
import type { RecoveryPlans } from '../../recovery/recovery-types';
import type { PauseKind } from './pause-kind';

/**
 * A plan step that keeps failing (recovery/): the answer is applied to the plan
 * (recovery/escalation-answer.ts) and words the failed call's tool_result; an abort halts the run.
 */
export function escalationKind(plans: RecoveryPlans | null): PauseKind<EscalationRequest, EscalationAnswer> {
  return {
    answer: EscalationAnswer,
    // Without recovery no run escalates, so nothing is pending.
    pending: (session) => (plans ? session.pendingEscalation : null),
    problem: () => null,
    needsOpenCall: false,
    continues: (answer) => answer.kind !== 'abort',
    async answered({ session, publish }, request, answer) {
      const sessionId = session.summary.id;
      publish({ type: 'escalation_resolved', sessionId, requestId: request.id, answer: answer.kind });
      const applied = applyEscalationAnswer(plans!, request, answer);
      if (applied.note) publish({ type: 'transcript_item', sessionId, item: noticeItem('info', applied.note, `escalation_${answer.kind}`) });
      return { kind: 'result', content: applied.text, isError: true, halt: applied.halt };
    },
    cancelled({ session, publish }, request) {
      publish({ type: 'escalation_resolved', sessionId: session.summary.id, requestId: request.id, answer: 'cancelled' });
      const applied = applyEscalationAnswer(plans!, request, { kind: 'cancelled' });
      return { kind: 'result', content: applied.text, isError: true, halt: false };
    },
  };
}

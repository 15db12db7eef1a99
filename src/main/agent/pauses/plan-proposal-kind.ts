import { z } from 'zod';
import { approvalMessage, feedbackMessage, ReviewDecision } from '../../../shared/plan-review';
import { isAwaitingApproval } from '../../../shared/plan';
import { userItem } from '../../common/transcript-items';
import { nextUserMark } from '../../chats/history-cut';
import { proposalProblem } from '../../plan/engine/plan-review';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import type { PauseKind, PauseRequest } from './pause-kind';

/** Plan first: the chat awaits the user's review of the plan Claude proposed (its id is the plan's). */
export interface PlanProposalRequest extends PauseRequest {
  planId: string;
  version: number;
}

/** "Approve plan" or "Send feedback" on the version the user saw. */
export const PlanProposalAnswer = z.object({ planId: z.string().min(1).max(100), version: z.number().int().nonnegative(), decision: ReviewDecision }).strict();
export type PlanProposalAnswer = z.infer<typeof PlanProposalAnswer>;

/**
 * A plan proposal (plan first): the run that proposed it ended, the proposal in the plan log is
 * the awaiting state. The answer is a plan change (approved, or feedback), then the user message
 * that says so, and a new run; no tool call is held back.
 */
export function planProposalKind(plans: Pick<PlanServiceApi, 'getPlan' | 'reviewPlan'>): PauseKind<PlanProposalRequest, PlanProposalAnswer> {
  return {
    answer: PlanProposalAnswer,
    pending(session) {
      const sessionId = session.summary.id;
      const plan = plans.getPlan(sessionId);
      return isAwaitingApproval(plan) ? { id: plan.id, sessionId, planId: plan.id, version: plan.version } : null;
    },
    problem: (request, answer) => proposalProblem(plans.getPlan(request.sessionId), answer.planId, answer.version),
    needsOpenCall: false,
    continues: () => true,
    // At once, not async: the caller reads the message's item right after, and the run starts before it returns.
    answered({ session, publish }, request, { version, decision }) {
      const sessionId = session.summary.id;
      const result = plans.reviewPlan(sessionId, request.planId, version, decision);
      // problem() checked it just before; a refusal now means the plan changed in between.
      if (!result.ok) return { kind: 'none', halt: true };
      const text = decision.kind === 'approve' ? approvalMessage(version) : feedbackMessage(version, decision.feedback);
      const item = { ...userItem(text), historyAt: nextUserMark(session.history) };
      session.appendUser([{ type: 'text', text }]);
      publish({ type: 'transcript_item', sessionId, item });
      publish({ type: 'session_updated', session: { ...session.summary, updatedAt: item.createdAt } });
      return { kind: 'none', halt: false };
    },
    // Stop has nothing to close: no run waits on a proposal (its run ended when it proposed).
    cancelled: () => ({ kind: 'none', halt: true }),
  };
}

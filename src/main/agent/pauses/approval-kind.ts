import { ApprovalDecision, type ApprovalRequest } from '../../../shared/prompts';
import type { ChatSession } from '../../chats/chat-session';
import { checkScopedAnswer } from './approval-scopes';
import { denialMessage, headlessProtectedDenial, STOPPED_AWAITING_APPROVAL } from './approval-step';
import type { PauseKind } from './pause-kind';

export interface ApprovalKindDeps {
  /** No person answers approvals in this process (waypoint run answers them itself): a protected change it refuses tells Claude why. */
  headless: boolean;
  /** Keeps what "Approve for this chat" / "Always approve" covers (approval-scopes.ts). */
  remember(session: ChatSession, request: ApprovalRequest, decision: ApprovalDecision): Promise<void>;
}

/** Approving a risky tool call: Approve runs the held call, Deny answers it with the denial. */
export function approvalKind(deps: ApprovalKindDeps): PauseKind<ApprovalRequest, ApprovalDecision> {
  return {
    answer: ApprovalDecision,
    pending: (session) => session.pendingApproval,
    problem(request, decision) {
      try {
        checkScopedAnswer(request, decision);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    },
    needsOpenCall: true,
    continues: () => true,
    async answered({ session, publish }, request, decision) {
      const sessionId = session.summary.id;
      publish({ type: 'approval_resolved', sessionId, requestId: request.id, decision: decision === 'deny' ? 'denied' : 'approved' });
      await deps.remember(session, request, decision);
      if (decision !== 'deny') return { kind: 'run' };
      const content = request.protected && deps.headless ? headlessProtectedDenial(request.toolName) : denialMessage(request.toolName);
      return { kind: 'result', content, isError: true, halt: false, card: 'denied' };
    },
    cancelled({ session, publish }, request) {
      publish({ type: 'approval_resolved', sessionId: session.summary.id, requestId: request.id, decision: 'cancelled' });
      return { kind: 'result', content: STOPPED_AWAITING_APPROVAL, isError: true, halt: false, card: 'error' };
    },
  };
}

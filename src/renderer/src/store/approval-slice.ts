import type { ApprovalDecision, ApprovalRequest } from '../../../shared/prompts';
import { answerPending, resolvePending, setPending } from './prompt-slots';
import type { ActionResult, SliceCreator } from './types';

export interface ApprovalSlice {
  /** The approval each chat awaits (main holds the state of record). */
  approvals: Record<string, ApprovalRequest | null>;
  setApproval(sessionId: string, request: ApprovalRequest | null): void;
  /** Clears the request once main says it was resolved (by anyone, e.g. another tab or Stop). */
  resolveApproval(sessionId: string, requestId: string): void;
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): Promise<ActionResult>;
}

export const createApprovalSlice: SliceCreator<ApprovalSlice> = (set, get, api) => ({
  approvals: {},
  setApproval: (sessionId, request) => setPending(set, 'approvals', sessionId, request),
  resolveApproval: (sessionId, requestId) => resolvePending(set, get, 'approvals', sessionId, requestId),
  answerApproval: (sessionId, requestId, decision) =>
    answerPending(set, get, 'approvals', sessionId, requestId, () => api.call('answerApproval', { sessionId, requestId, decision }), { stale: 'That approval was already answered (in another window?) or cancelled: nothing changed.' }),
});

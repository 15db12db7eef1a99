import type { ApprovalDecision, ApprovalRequest } from '../../../shared/prompts';
import { failed, OK } from './errors';
import type { ActionResult, SliceCreator } from './types';

export interface ApprovalSlice {
  /** The approval each chat's run waits for (main holds the state of record). */
  approvals: Record<string, ApprovalRequest | null>;
  setApproval(sessionId: string, request: ApprovalRequest | null): void;
  /** Clears the request once main says it was resolved (by anyone, e.g. another tab or Stop). */
  resolveApproval(sessionId: string, requestId: string): void;
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): Promise<ActionResult>;
}

export const createApprovalSlice: SliceCreator<ApprovalSlice> = (set, get, api) => ({
  approvals: {},
  setApproval(sessionId, request) {
    set((state) => ({ approvals: { ...state.approvals, [sessionId]: request } }));
  },
  resolveApproval(sessionId, requestId) {
    if (get().approvals[sessionId]?.id !== requestId) return;
    get().setApproval(sessionId, null);
  },
  async answerApproval(sessionId, requestId, decision) {
    try {
      const { accepted } = await api.call('answerApproval', { sessionId, requestId, decision });
      // Not accepted: it was already answered or cancelled; main's events bring the truth.
      if (accepted) get().resolveApproval(sessionId, requestId);
      else get().setLastError('That approval was already answered or cancelled.');
      return OK;
    } catch (error) {
      const result = failed(error);
      if (!result.ok) get().setLastError(result.message);
      return result;
    }
  },
});

import type { SliceCreator } from './types';

/**
 * What a waiting chat asks, for chats that are not open: the store holds a chat's pending
 * questions only from its snapshot (the open chat) or from events seen since this window loaded,
 * so after a reload a waiting chat is known only by the list's "needs-you" stamp. The "Needs you"
 * dialog asks main for the rest, to show (and answer) the chat's own prompt in place.
 */
export interface WaitingPromptsSlice {
  loadPendingPrompts(sessionId: string): Promise<void>;
}

export const createWaitingPromptsSlice: SliceCreator<WaitingPromptsSlice> = (_set, get, api) => ({
  async loadPendingPrompts(sessionId) {
    let pending;
    try {
      pending = await api.call('getPendingPrompts', { sessionId });
    } catch {
      // The chat went (deleted, or another process took it): its item leaves with it; the dialog keeps "Open chat".
      return;
    }
    // Only what is asked is taken: an event may have resolved a request meanwhile, and a null here must not undo a newer one.
    const state = get();
    if (pending.pendingApproval) state.setApproval(sessionId, pending.pendingApproval);
    if (pending.pendingEscalation) state.setEscalation(sessionId, pending.pendingEscalation);
    if (pending.pendingQuestion) state.setQuestion(sessionId, pending.pendingQuestion);
    if (pending.proposedPlan) state.applyPlan(sessionId, pending.proposedPlan);
    if (pending.budgetStop) state.applyPlan(sessionId, pending.budgetStop);
  },
});

import type { SessionSummary } from '../../shared/transcript';

/** What stamping the list needs: the loop's runs, and the chats held in memory (one only listed asks nothing: store/chat-index.ts). */
export interface ListedRunSources {
  isRunning(sessionId: string): boolean;
  /** The chat in memory, or undefined when it is only listed from the chat index. */
  inMemory(sessionId: string): { pendingApproval: unknown; pendingEscalation: unknown; pendingQuestion: unknown; runState: { status: string } } | undefined;
  /** A plan of this chat awaits approval (plan first). */
  proposed(sessionId: string): boolean;
}

/**
 * The chat list with what each chat is doing now (`run`), so the sidebar shows "Working" and
 * "Needs you" right after a reload, before any event of those chats comes. A chat only listed
 * from the index needs no look: the index lists a chat unread only when it has no run and no
 * question (listableFromIndex), and a proposal is asked of chats in memory only.
 */
export function withListedRuns(sessions: readonly SessionSummary[], sources: ListedRunSources): SessionSummary[] {
  return sessions.map((summary) => {
    const { run: _stale, ...rest } = summary;
    const chat = sources.inMemory(summary.id);
    if (!chat) return rest;
    const asking = !!(chat.pendingApproval || chat.pendingEscalation || chat.pendingQuestion) || chat.runState.status.startsWith('awaiting_') || sources.proposed(summary.id);
    if (asking) return { ...rest, run: 'needs-you' };
    return sources.isRunning(summary.id) ? { ...rest, run: 'working' } : rest;
  });
}

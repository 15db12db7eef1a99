import { chatRun, type ChatRun } from '../../../../shared/chat-run';
import type { SessionSummary } from '../../../../shared/transcript';
import { isAsking } from '../../store/chat-asking';
import { useWaypoint } from '../../store/store-context';

/**
 * The chat's state for its sidebar row (shared/chat-run.ts), from what the store holds of it. The
 * row passes its own summary: looking it up in the list would cost every row a walk of every chat
 * on each store change (each streamed frame), with 10,000 chats listed.
 */
export function useChatRun(summary: SessionSummary | undefined): ChatRun {
  return useWaypoint((s) => (summary ? chatRun(summary, s.runStates[summary.id], isAsking(s, summary.id)) : 'idle'));
}

/** The words the row shows for a state; none while idle. */
export const RUN_WORDS: Record<ChatRun, string | null> = { idle: null, working: 'Working', queued: 'Queued', 'needs-you': 'Needs you' };

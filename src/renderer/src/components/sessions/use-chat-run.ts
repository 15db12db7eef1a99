import { chatRun, type ChatRun } from '../../../../shared/chat-run';
import { isAsking } from '../../store/chat-asking';
import { useWaypoint } from '../../store/store-context';

/** The chat's state for its sidebar row (shared/chat-run.ts), from what the store holds of it. */
export function useChatRun(sessionId: string | undefined): ChatRun {
  return useWaypoint((s) => {
    const summary = sessionId ? s.sessions.find((c) => c.id === sessionId) : undefined;
    if (!summary || !sessionId) return 'idle';
    return chatRun(summary, s.runStates[sessionId], isAsking(s, sessionId));
  });
}

/** The words the row shows for a state; none while idle. */
export const RUN_WORDS: Record<ChatRun, string | null> = { idle: null, working: 'Working', queued: 'Queued', 'needs-you': 'Needs you' };

import type { ChatSession } from './chat-session';

/**
 * A chat nothing has happened in yet: no message, no reply, no plan, nothing waiting. "New chat"
 * opens such a chat again rather than piling up empty ones.
 */
export function isEmptyChat(session: ChatSession, hasPlan: boolean, running: boolean): boolean {
  return (
    !running &&
    !hasPlan &&
    session.itemCount === 0 &&
    session.history.length === 0 &&
    !session.pendingApproval &&
    !session.pendingEscalation &&
    !session.pendingQuestion &&
    !session.summary.interrupted
  );
}

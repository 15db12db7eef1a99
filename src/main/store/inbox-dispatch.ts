import { join } from 'node:path';
import { replyToInbox, takeFromInbox, type InboxReply, type TakenRequest } from './chat-inbox';

/**
 * Carries out what other processes asked of the chats this one writes (chat-inbox.ts): each
 * request is taken in the order sent and answered in the sender's reply file.
 */
export function dispatchInbox(
  sessionsDir: string,
  writing: Iterable<string>,
  onRequest: (sessionId: string, taken: TakenRequest) => InboxReply | void,
  warn: (message: string) => void,
): void {
  for (const sessionId of writing) {
    const chatDir = join(sessionsDir, sessionId);
    for (const taken of takeFromInbox(chatDir, warn)) {
      const reply = onRequest(sessionId, taken);
      if (reply) replyToInbox(chatDir, taken.name, reply);
    }
  }
}

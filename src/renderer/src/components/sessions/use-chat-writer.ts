import { useEffect } from 'react';
import type { ChatWriter } from '../../../../shared/chat-writer';
import { useWaypoint } from '../../store/store-context';

/** How often a chat another process writes is asked about again, to learn when it lets go. */
const HELD_POLL_MS = 2000;

/**
 * Who writes the open chat elsewhere, asked when it opens and whenever it changes (another
 * process's writes reach this window as updates of the chat), so the composer can say so before
 * anything is typed rather than after a refused Send. While another process holds it, it is asked
 * again every few seconds: a lock let go of changes nothing in the chat, so nothing else tells.
 */
export function useChatWriter(sessionId: string | null): ChatWriter | null {
  const writer = useWaypoint((s) => (sessionId ? (s.chatWriters[sessionId] ?? null) : null));
  const updatedAt = useWaypoint((s) => (sessionId ? s.sessions.find((x) => x.id === sessionId)?.updatedAt : undefined));
  const check = useWaypoint((s) => s.checkChatWriter);
  const held = writer !== null;
  useEffect(() => {
    if (sessionId) void check(sessionId);
  }, [sessionId, updatedAt, check]);
  useEffect(() => {
    if (!sessionId || !held) return;
    const timer = setInterval(() => void check(sessionId), HELD_POLL_MS);
    return () => clearInterval(timer);
  }, [sessionId, held, check]);
  return writer;
}

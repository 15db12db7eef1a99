import type { SessionSummary } from '../../../shared/transcript';
import type { MemoryBackend } from './memory-backend';

/**
 * The backend's New chat and Send as main does them, with the moment in between held by the test:
 * newSession hands back the newest chat with nothing in it (main reuses an empty chat rather than
 * pile them up), and sendMessage puts its message in only when `release()` is called, as main
 * does after its own awaits (the chat's worktree, the message's files).
 */
export function mainLikeNewChats(backend: MemoryBackend): { release(): void; made(): number } {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let made = 0;
  const newest = (): SessionSummary[] => [...backend.chats.values()].map((c) => c.summary).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  backend.override('newSession', () => {
    const empty = newest().find((s) => backend.chats.get(s.id)!.transcript.length === 0);
    if (empty) return empty;
    const id = `made-${++made}`;
    backend.addChat(id, 'New chat', { updatedAt: new Date(Date.UTC(2025, 0, 10, made)).toISOString() });
    return backend.chats.get(id)!.summary;
  });
  backend.override('sendMessage', async ({ sessionId, text }) => {
    await held;
    const chat = backend.chats.get(sessionId)!;
    const item = { id: `u-${chat.transcript.length + 1}`, kind: 'user' as const, text, createdAt: new Date().toISOString() };
    chat.transcript.push(item);
    return { itemId: item.id };
  });
  return { release: () => release(), made: () => made };
}

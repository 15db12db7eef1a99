import { type ChatIndex, readChatIndex, writeChatIndex } from './chat-index-file';
import { newestFirst } from '../chats/chat-session';

/** Serialises index writes and coalesces bursts (many summary changes in one turn) into one. */
export class IndexWriter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessionsDir: string,
    private readonly snapshot: () => ChatIndex | Promise<ChatIndex>,
    private readonly delayMs = 150,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.writeNow();
    }, this.delayMs);
    this.timer.unref?.();
  }

  writeNow(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const run = this.chain.then(async () => writeChatIndex(this.sessionsDir, await this.snapshot()));
    this.chain = run.catch((error: unknown) => console.warn(`[waypoint] could not write the chat index: ${(error as Error).message}`));
    return this.chain;
  }
}

/**
 * The index as this process writes it when others may share the folder: its own chats, plus the
 * chats another process listed that still have a folder (this one may not know them yet).
 */
export async function mergedIndex(sessionsDir: string, known: ChatIndex, hasFolder: (id: string) => boolean): Promise<ChatIndex> {
  const onDisk = await readChatIndex(sessionsDir);
  if (onDisk.kind !== 'ok') return known;
  const others = onDisk.index.sessions.filter((s) => !(s.id in known.logs) && onDisk.index.logs[s.id] && hasFolder(s.id));
  if (!others.length) return known;
  const logs = { ...known.logs };
  for (const s of others) logs[s.id] = onDisk.index.logs[s.id]!;
  return { version: 2, sessions: newestFirst([...known.sessions, ...others]), logs };
}

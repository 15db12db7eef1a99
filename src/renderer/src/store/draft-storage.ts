/**
 * Half-typed messages, one per chat, in the page's localStorage so they survive a reload, a chat
 * switch and (in the desktop app, or a web shell restarted on the same --port) a restart. A web
 * shell on a new port is a new origin with empty storage: drafts do not follow it there.
 *
 * Keys are per chat id, so a draft never shows in another chat. Writes are coalesced (a 200 KB
 * paste is not rewritten on every keystroke) and flushed when the page is hidden or unloaded.
 */
export const DRAFT_PREFIX = 'waypoint.draft.';
const WRITE_DELAY_MS = 300;

export interface DraftStorage {
  load(sessionId: string): string;
  save(sessionId: string, text: string): void;
  /** Writes what is pending now (page hidden or unloading). */
  flush(): void;
  /** Forgets drafts of chats that no longer exist. */
  prune(existing: readonly string[]): void;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

function pageStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled: drafts then live only as long as the page
  }
}

export function createDraftStorage(storage: KeyValueStorage | null = pageStorage(), delayMs = WRITE_DELAY_MS): DraftStorage {
  const pending = new Map<string, string>();
  const memory = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const write = (sessionId: string, text: string) => {
    try {
      if (text) storage?.setItem(DRAFT_PREFIX + sessionId, text);
      else storage?.removeItem(DRAFT_PREFIX + sessionId);
    } catch {
      // Over the quota: the draft stays in memory for this page's life.
    }
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    for (const [sessionId, text] of pending) write(sessionId, text);
    pending.clear();
  };

  return {
    load(sessionId) {
      const held = memory.get(sessionId);
      if (held !== undefined) return held;
      try {
        return storage?.getItem(DRAFT_PREFIX + sessionId) ?? '';
      } catch {
        return '';
      }
    },
    save(sessionId, text) {
      memory.set(sessionId, text);
      pending.set(sessionId, text);
      if (!text) return flush(); // a sent message's draft goes at once
      timer ??= setTimeout(flush, delayMs);
    },
    flush,
    prune(existing) {
      flush();
      const keep = new Set(existing);
      for (const sessionId of memory.keys()) if (!keep.has(sessionId)) memory.delete(sessionId);
      if (!storage) return;
      const stale: string[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key?.startsWith(DRAFT_PREFIX) && !keep.has(key.slice(DRAFT_PREFIX.length))) stale.push(key);
      }
      for (const key of stale) storage.removeItem(key);
    },
  };
}

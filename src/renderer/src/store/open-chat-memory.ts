import type { WaypointStore } from './types';

/**
 * The chat open in this tab, kept in sessionStorage: a reload reopens it (not the newest chat),
 * and each tab keeps its own. A new tab or a restart starts from the newest chat, as before.
 */
const KEY = 'waypoint.openChat';

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

function tabStorage(): KeyValueStorage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function rememberedOpenChat(storage: KeyValueStorage | null = tabStorage()): string | null {
  try {
    return storage?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}

/** Writes the open chat whenever it changes; returns the unsubscribe. */
export function rememberOpenChat(store: WaypointStore, storage: KeyValueStorage | null = tabStorage()): () => void {
  return store.subscribe((state, previous) => {
    if (!state.currentSessionId || state.currentSessionId === previous.currentSessionId) return;
    try {
      storage?.setItem(KEY, state.currentSessionId);
    } catch {
      // not remembered; a reload opens the newest chat
    }
  });
}

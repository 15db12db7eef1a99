import { WaypointCallError } from '../../../shared/contract';
import { messageOf } from './errors';
import { holds, type TranscriptWindow, withOlderPage } from './transcript-window';
import type { SliceCreator } from './types';

/**
 * What the transcript asks of the older part of a chat: the page before what it holds (scrolled
 * near the top), everything down to an item (find in chat revealing a match), or all of it (Home).
 */
export type OlderWant = { kind: 'page' } | { kind: 'through'; itemId: string } | { kind: 'all' };

/**
 * Paged sessions (issue 15): a chat opens with its last page (transcript-window.ts); the rest is
 * loaded from main when the transcript asks for it, one request per chat at a time. A request
 * made while one is on its way waits for it, and then asks only for what is still missing.
 */
export interface TranscriptPagesSlice {
  /** Chats whose older items are being loaded (the transcript says "Loading earlier messages…"). */
  loadingOlder: Record<string, true>;
  loadOlder(sessionId: string, want: OlderWant): Promise<void>;
  /**
   * Applies a change to the chat's window, if this tab holds one; a change that finds the window
   * out of step with main (events were missed) loads the chat's snapshot again.
   */
  changeWindow(sessionId: string, change: (window: TranscriptWindow) => TranscriptWindow): void;
  /** Several changes, in order, as one store update (one render for a frame of many chats' text). */
  changeWindows(changes: ReadonlyArray<readonly [sessionId: string, change: (window: TranscriptWindow) => TranscriptWindow]>): void;
}

/** The stronger of two wants: all covers anything, the newest find's item replaces an older one. */
function stronger(a: OlderWant | undefined, b: OlderWant): OlderWant {
  return a?.kind === 'all' ? a : b;
}

function satisfied(window: TranscriptWindow | undefined, want: OlderWant): boolean {
  if (!window || window.olderItems === 0) return true;
  return want.kind === 'through' && holds(window, want.itemId);
}

export const createTranscriptPagesSlice: SliceCreator<TranscriptPagesSlice> = (set, get, api) => {
  /** The want that waits for the request on its way, per chat. */
  const queued = new Map<string, OlderWant>();

  const request = async (sessionId: string, want: OlderWant): Promise<void> => {
    const window = get().transcripts[sessionId];
    if (satisfied(window, want)) return;
    const first = window!.items[0];
    if (!first) {
      // An edit cut everything held: there is nothing to page back from, so the chat opens again.
      await get().reloadSession(sessionId);
      return;
    }
    const beforeItemId = first.id;
    try {
      const page = await api.call('getTranscriptPage', {
        sessionId,
        beforeItemId,
        ...(want.kind === 'all' ? { limit: window!.olderItems } : {}),
        ...(want.kind === 'through' ? { throughItemId: want.itemId } : {}),
      });
      get().changeWindow(sessionId, (held) => withOlderPage(held, beforeItemId, page));
    } catch (error) {
      const moved = get().transcripts[sessionId]?.items[0]?.id !== beforeItemId;
      // The item asked from is gone: an edit cut it (its event already moved the window on, or is
      // still on its way — then the chat's snapshot puts things right).
      if (error instanceof WaypointCallError && error.code === 'not_found') {
        if (!moved) await get().reloadSession(sessionId);
        return;
      }
      if (sessionId === get().currentSessionId) get().setLastError(`Earlier messages could not be loaded: ${messageOf(error)}`);
    }
  };

  return {
    loadingOlder: {},
    async loadOlder(sessionId, want) {
      if (get().loadingOlder[sessionId]) {
        // Scrolling asks for a page on every event near the top: the page on its way answers those.
        if (want.kind !== 'page') queued.set(sessionId, stronger(queued.get(sessionId), want));
        return;
      }
      set((state) => ({ loadingOlder: { ...state.loadingOlder, [sessionId]: true } }));
      try {
        let next: OlderWant | undefined = want;
        while (next) {
          await request(sessionId, next);
          next = queued.get(sessionId);
          queued.delete(sessionId);
        }
      } finally {
        set((state) => {
          const { [sessionId]: _done, ...rest } = state.loadingOlder;
          return { loadingOlder: rest };
        });
      }
    },
    changeWindow(sessionId, change) {
      get().changeWindows([[sessionId, change]]);
    },
    changeWindows(changes) {
      const before = get().transcripts;
      let after = before;
      const stale: string[] = [];
      for (const [sessionId, change] of changes) {
        const held = after[sessionId];
        if (!held) continue; // not opened in this tab: its snapshot will carry everything
        const next = change(held);
        if (next === held) continue;
        if (after === before) after = { ...before };
        after[sessionId] = next;
        if (next.stale && !held.stale) stale.push(sessionId);
      }
      if (after !== before) set({ transcripts: after });
      for (const sessionId of stale) void get().reloadSession(sessionId);
    },
  };
};

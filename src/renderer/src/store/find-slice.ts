import type { CallOutput } from '../../../shared/contract';
import { messageOf } from './errors';
import type { SliceCreator } from './types';

export type FindResult = CallOutput<'findInChat'>;
export type FindMatch = FindResult['matches'][number];

/**
 * Find in chat. Main searches the whole chat (the transcript may show only part of it); the bar
 * steps through the matches and asks the transcript to reveal each (ui-slice's revealItem).
 */
export interface FindSlice {
  findOpen: boolean;
  /** Grows each time find is asked for (shortcut, button), so an open bar takes the focus again. */
  findRequest: number;
  /** The query `findResult` answers ('' while there is none). */
  findQuery: string;
  findResult: FindResult | null;
  /** The current match in findResult.matches. */
  findIndex: number;
  findError: string | null;
  openFind(): void;
  closeFind(): void;
  /** Asks main for the matches in the current chat; only the answer to the latest query counts. */
  findInChat(query: string): Promise<void>;
  /** Next (1) or previous (-1) match, wrapping around. */
  stepFind(delta: 1 | -1): void;
}

const CLEARED = { findQuery: '', findResult: null, findIndex: 0, findError: null } as const;

export const createFindSlice: SliceCreator<FindSlice> = (set, get, api) => {
  let generation = 0;
  const revealCurrent = () => {
    const { findResult, findIndex } = get();
    const match = findResult?.matches[findIndex];
    if (match) get().revealItem(match.itemId);
  };
  return {
    findOpen: false,
    findRequest: 0,
    ...CLEARED,
    openFind: () => set((s) => ({ findOpen: true, findRequest: s.findRequest + 1 })),
    closeFind() {
      generation++;
      set({ findOpen: false, ...CLEARED });
    },
    async findInChat(query) {
      const mine = ++generation;
      const sessionId = get().currentSessionId;
      if (!sessionId || !query.trim()) {
        set({ ...CLEARED });
        return;
      }
      try {
        const result = await api.call('findInChat', { sessionId, query });
        if (mine !== generation) return;
        // The same query again (the chat grew): stay on the match the user was on.
        const { findResult: before, findIndex, findQuery } = get();
        const was = findQuery === query ? before?.matches[findIndex] : undefined;
        const kept = was ? result.matches.findIndex((m) => m.itemId === was.itemId && m.occurrence === was.occurrence) : -1;
        set({ findQuery: query, findResult: result, findIndex: Math.max(0, kept), findError: null });
        if (kept < 0) revealCurrent();
      } catch (error) {
        if (mine === generation) set({ ...CLEARED, findError: messageOf(error) });
      }
    },
    stepFind(delta) {
      const { findResult, findIndex } = get();
      const count = findResult?.matches.length ?? 0;
      if (count === 0) return;
      set({ findIndex: (findIndex + delta + count) % count });
      revealCurrent();
    },
  };
};

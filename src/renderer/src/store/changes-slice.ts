import type { CallInput, CallName, CallOutput } from '../../../shared/contract';
import { messageOf } from './errors';
import type { SliceCreator } from './types';

/** The calls of the "Changes" region and of Settings' worktree section. */
type ChangesCall = 'getChanges' | 'getFileDiff' | 'revertFile' | 'mergeWorktree' | 'discardWorktree' | 'getWorktreeUsage' | 'cleanUpWorktrees';

export type ChangesResult<N extends CallName> = { ok: true; value: CallOutput<N> } | { ok: false; message: string };

/**
 * "Changes" (docs/architecture.md "Worktrees and Changes"): which chat's region is open, and its
 * calls with main's refusal in words. What the region lists is asked of main each time it opens
 * or acts: main holds the files, so nothing here can go stale.
 */
export interface ChangesSlice {
  changesFor: string | null;
  openChanges(sessionId: string | null): void;
  changesCall<N extends ChangesCall>(name: N, input: CallInput<N>): Promise<ChangesResult<N>>;
}

export const createChangesSlice: SliceCreator<ChangesSlice> = (set, get, api) => ({
  changesFor: null,
  openChanges: (sessionId) => set({ changesFor: sessionId }),
  async changesCall(name, input) {
    try {
      const value = await api.call(name, input);
      // Discard moves the chat's workspace: the header follows at once.
      if (name === 'discardWorktree') get().upsertSession((value as CallOutput<'discardWorktree'>).session);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, message: messageOf(error) };
    }
  },
});

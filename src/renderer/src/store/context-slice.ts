import { failed, OK } from './errors';
import type { ActionResult, SliceCreator } from './types';

/** "Compact now" (docs/contract.md §5, Compaction): main runs the summary request; its marker arrives as a transcript item. */
export interface ContextSlice {
  compactNow(): Promise<ActionResult>;
}

export const createContextSlice: SliceCreator<ContextSlice> = (set, get, api) => ({
  async compactNow() {
    const sessionId = get().currentSessionId;
    if (!sessionId) return OK;
    try {
      set({ composerError: null });
      await api.call('compactSession', { sessionId });
      return OK;
    } catch (error) {
      const result = failed(error);
      if (!result.ok) set({ composerError: result.message });
      return result;
    }
  },
});

import type { CallOutput } from '../../../shared/contract';
import { failed, OK } from './errors';
import { withRewind } from './transcript-window';
import type { ActionResult, SliceCreator } from './types';

export type RerunPreview = CallOutput<'previewRerun'>;

/**
 * Edit message and Retry reply (docs/contract.md §5). Main cuts the chat and says so with one event
 * (chat_rewound), which every window applies the same way; the earlier version arrives as a new
 * chat in the list.
 */
export interface RerunSlice {
  editMessage(sessionId: string, itemId: string, text: string, restoreFiles: boolean): Promise<ActionResult>;
  retryReply(sessionId: string, restoreFiles?: boolean): Promise<ActionResult>;
  /** The files the turns from this message on changed ("Save and rerun" and "Retry reply" can put them back first), and the commands they ran. */
  previewRerun(sessionId: string, itemId: string): Promise<({ ok: true } & RerunPreview) | { ok: false; message: string }>;
  /** chat_rewound: the item and everything after it are gone (`index`: where main cut); the plan too when it was made there. */
  applyRewind(sessionId: string, fromItemId: string, planDropped: boolean, index?: number): void;
}

export const createRerunSlice: SliceCreator<RerunSlice> = (set, get, api) => ({
  async editMessage(sessionId, itemId, text, restoreFiles) {
    try {
      await api.call('editMessage', { sessionId, itemId, text, restoreFiles });
      return OK;
    } catch (error) {
      return failed(error);
    }
  },
  async retryReply(sessionId, restoreFiles = false) {
    try {
      await api.call('retryReply', { sessionId, restoreFiles });
      return OK;
    } catch (error) {
      const result = failed(error);
      if (!result.ok) get().setLastError(result.message);
      return result;
    }
  },
  async previewRerun(sessionId, itemId) {
    try {
      return { ok: true, ...(await api.call('previewRerun', { sessionId, itemId })) };
    } catch (error) {
      return failed(error) as { ok: false; message: string };
    }
  },
  applyRewind(sessionId, fromItemId, planDropped, index) {
    get().changeWindow(sessionId, (window) => withRewind(window, fromItemId, index));
    if (!planDropped) return;
    set((state) => ({
      plans: { ...state.plans, [sessionId]: null },
      sessions: state.sessions.map((s) => {
        if (s.id !== sessionId) return s;
        const { planProgress: _dropped, ...rest } = s;
        return rest;
      }),
    }));
  },
});

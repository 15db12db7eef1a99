import type { ChatWriter } from '../../../shared/chat-writer';
import { WaypointCallError } from '../../../shared/contract';
import { failed, OK } from './errors';
import type { ActionResult, SliceCreator } from './types';

/**
 * A chat another Waypoint process writes (one writer per chat log): after a change is refused for
 * that, the window asks main who writes it and shows it; "Take over" is offered when that process
 * cannot be checked (another computer's, or an older Waypoint's lock), after a confirmation.
 */
export interface ChatWriterSlice {
  /** Per chat, who writes it elsewhere, as last asked (absent or null: nobody, as far as known). */
  chatWriters: Record<string, ChatWriter | null>;
  /** The chat whose takeover waits for the user's confirmation. */
  pendingTakeOver: string | null;
  /** A call on this chat failed: when it was refused as 'busy', ask who writes the chat. */
  noteRefusal(sessionId: string, error: unknown): void;
  /** A change of the chat went through: nobody else writes it now, whatever was shown before. */
  noteWritten(sessionId: string): void;
  checkChatWriter(sessionId: string): Promise<void>;
  requestTakeOver(sessionId: string | null): void;
  confirmTakeOver(): Promise<ActionResult>;
}

export const createChatWriterSlice: SliceCreator<ChatWriterSlice> = (set, get, api) => ({
  chatWriters: {},
  pendingTakeOver: null,
  noteRefusal(sessionId, error) {
    if (error instanceof WaypointCallError && error.code === 'busy') void get().checkChatWriter(sessionId);
  },
  noteWritten(sessionId) {
    if (get().chatWriters[sessionId]) set((state) => ({ chatWriters: { ...state.chatWriters, [sessionId]: null } }));
  },
  async checkChatWriter(sessionId) {
    try {
      const { writer } = await api.call('getChatWriter', { sessionId });
      set((state) => ({ chatWriters: { ...state.chatWriters, [sessionId]: writer } }));
    } catch {
      // The refusal itself is shown already; without an answer nothing more is offered.
    }
  },
  requestTakeOver: (sessionId) => set({ pendingTakeOver: sessionId }),
  async confirmTakeOver() {
    const sessionId = get().pendingTakeOver;
    set({ pendingTakeOver: null });
    const writer = sessionId ? get().chatWriters[sessionId] : null;
    if (!sessionId || !writer) return OK;
    try {
      await api.call('takeOverChat', { sessionId, token: writer.token });
      set((state) => ({ chatWriters: { ...state.chatWriters, [sessionId]: null }, composerError: null }));
      get().setLastError(null);
      return OK;
    } catch (error) {
      const result = failed(error);
      if (!result.ok) get().setLastError(result.message);
      // What holds the chat now may have changed: show that instead.
      void get().checkChatWriter(sessionId);
      return result;
    }
  },
});

import type { CallOutput } from '../../../shared/contract';
import { failed, OK } from './errors';
import type { ActionResult, SliceCreator } from './types';

export type SessionSearchResult = CallOutput<'searchSessions'>['results'][number];

export interface SessionsManageSlice {
  /** The chat whose deletion waits for the user's confirmation. */
  pendingDelete: string | null;
  /** null while no search is active. */
  searchResults: SessionSearchResult[] | null;
  searchQuery: string;
  /** The settings-reset notice was dismissed (it is shown once per start). */
  settingsNoticeDismissed: boolean;
  renameSession(sessionId: string, title: string): Promise<ActionResult>;
  /** "Pin chat" / "Unpin chat": kept in main with the chat, so it survives a restart. */
  pinSession(sessionId: string, pinned: boolean): Promise<ActionResult>;
  /** "Chat model": the model this chat's runs use, kept in main with the chat. */
  setChatModel(sessionId: string, model: string): Promise<ActionResult>;
  requestDelete(sessionId: string | null): void;
  /** keepBranch: a worktree chat's branch stays, its uncommitted work committed on it. */
  confirmDelete(keepBranch?: boolean): Promise<ActionResult>;
  /** main deleted a chat (here or in another window): forget it, and leave it if it was open. */
  removeSession(sessionId: string): void;
  searchSessions(query: string): Promise<void>;
  /** "Resume" an interrupted run: continues from the last consistent point in main. */
  resumeRun(): Promise<ActionResult>;
  dismissSettingsNotice(): void;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

export const createSessionsManageSlice: SliceCreator<SessionsManageSlice> = (set, get, api) => {
  const report = (error: unknown): ActionResult => {
    const result = failed(error);
    if (!result.ok) get().setLastError(result.message);
    return result;
  };
  let searchGeneration = 0;
  return {
    pendingDelete: null,
    searchResults: null,
    searchQuery: '',
    settingsNoticeDismissed: false,
    async renameSession(sessionId, title) {
      try {
        get().upsertSession(await api.call('renameSession', { sessionId, title }));
        get().noteWritten(sessionId);
        return OK;
      } catch (error) {
        get().noteRefusal(sessionId, error);
        return report(error);
      }
    },
    async pinSession(sessionId, pinned) {
      try {
        get().upsertSession(await api.call('pinSession', { sessionId, pinned }));
        return OK;
      } catch (error) {
        return report(error);
      }
    },
    async setChatModel(sessionId, model) {
      try {
        get().upsertSession(await api.call('setSessionModel', { sessionId, model }));
        return OK;
      } catch (error) {
        return report(error);
      }
    },
    requestDelete: (sessionId) => set({ pendingDelete: sessionId }),
    async confirmDelete(keepBranch) {
      const sessionId = get().pendingDelete;
      set({ pendingDelete: null });
      if (!sessionId) return OK;
      try {
        await api.call('deleteSession', keepBranch ? { sessionId, keepBranch } : { sessionId });
        get().removeSession(sessionId);
        return OK;
      } catch (error) {
        return report(error);
      }
    },
    removeSession(sessionId) {
      if (!get().sessions.some((s) => s.id === sessionId)) return;
      const wasCurrent = get().currentSessionId === sessionId;
      set((state) => ({
        sessions: state.sessions.filter((s) => s.id !== sessionId),
        transcripts: without(state.transcripts, sessionId),
        runStates: without(state.runStates, sessionId),
        plans: without(state.plans, sessionId),
        searchResults: state.searchResults?.filter((r) => r.session.id !== sessionId) ?? null,
        ...(wasCurrent ? { currentSessionId: null } : {}),
      }));
      if (!wasCurrent) return;
      const next = get().sessions[0];
      void (next ? get().openSession(next.id) : get().newChat());
    },
    async searchSessions(query) {
      const generation = ++searchGeneration;
      set({ searchQuery: query });
      if (!query.trim()) {
        set({ searchResults: null });
        return;
      }
      try {
        const { results } = await api.call('searchSessions', { query });
        // Typing fast: only the answer to the latest query counts.
        if (generation === searchGeneration) set({ searchResults: results });
      } catch (error) {
        report(error);
      }
    },
    async resumeRun() {
      const sessionId = get().currentSessionId;
      if (!sessionId) return OK;
      try {
        const { started } = await api.call('retryRun', { sessionId });
        if (!started) get().setLastError('There is nothing to resume in this chat: Claude had already answered. Send a message to go on.');
        return OK;
      } catch (error) {
        return report(error);
      }
    },
    dismissSettingsNotice: () => set({ settingsNoticeDismissed: true }),
  };
};

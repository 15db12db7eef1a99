import type { SessionSummary } from '../../../shared/transcript';
import { failed, OK } from './errors';
import type { ActionResult, SessionsSlice, SliceCreator } from './types';

/** Pinned chats first; within each group, newest activity first, as in Claude Desktop's sidebar. */
export function sortSessions(sessions: SessionSummary[]): SessionSummary[] {
  return [...sessions].sort((a, b) => Number(b.pinned === true) - Number(a.pinned === true) || b.updatedAt.localeCompare(a.updatedAt));
}

export const createSessionsSlice: SliceCreator<SessionsSlice> = (set, get, api) => {
  /** Whether the chat being made is the user's New chat (else a Send's own, from an empty window). */
  let inFlightByUser = false;
  return {
    sessions: [],
    currentSessionId: null,
    setSessions: (sessions) => set({ sessions: sortSessions(sessions) }),
    upsertSession: (session) =>
      set((state) => {
        // The list's stamp of what the chat was doing stays until the chat's own run events say more (shared/chat-run.ts).
        const listed = state.sessions.find((s) => s.id === session.id)?.run;
        const kept = listed && !session.run ? { ...session, run: listed } : session;
        return { sessions: sortSessions([kept, ...state.sessions.filter((s) => s.id !== session.id)]) };
      }),
    async openSession(sessionId) {
      set({ currentSessionId: sessionId, composerError: null });
      return get().reloadSession(sessionId);
    },
    async reloadSession(sessionId) {
      try {
        const snapshot = await api.call('getSession', { sessionId });
        get().applySnapshot(snapshot);
        return OK;
      } catch (error) {
        const result = failed(error);
        if (!result.ok) get().setLastError(result.message);
        return result;
      }
    },
    workspaceDialogOpen: false,
    setWorkspaceDialogOpen: (open) => set({ workspaceDialogOpen: open }),
    async chooseWorkspace(folder) {
      let sessionId = get().currentSessionId;
      if (!sessionId) {
        // The folder is chosen before the first message, so the chat may not exist yet.
        const created = await get().newChat({ carryDraft: true });
        sessionId = get().currentSessionId;
        if (!created.ok) return created;
        if (!sessionId) return { ok: false, message: 'Could not start a chat.' };
      }
      try {
        await api.call('chooseWorkspace', { sessionId, ...(folder === undefined ? {} : { folder }) }); // the new folder arrives as session_updated
        return OK;
      } catch (error) {
        const result = failed(error);
        if (!result.ok && folder === undefined) get().setLastError(result.message);
        return result;
      }
    },
    newChatInFlight: null,
    newChat(options = { carryDraft: true }) {
      // One new chat at a time: a Send pressed while main makes it goes to it (sendMessage waits for
      // this), and a second press of New chat is the same one. New chat pressed while a Send makes
      // its own chat is another chat: made once that one is (its message goes there first).
      const inFlight = get().newChatInFlight;
      if (inFlight && (inFlightByUser || !options.carryDraft)) return inFlight;
      if (inFlight) return inFlight.then(() => get().newChat(options));
      inFlightByUser = options.carryDraft;
      const making = newChatMaker(set, get, api)(options).finally(() => set({ newChatInFlight: null }));
      set({ newChatInFlight: making });
      return making;
    },
  };
};

/** The sessions slice's New chat: main makes the chat, the window opens it (unless the user went elsewhere). */
function newChatMaker(set: Parameters<SliceCreator<SessionsSlice>>[0], get: Parameters<SliceCreator<SessionsSlice>>[1], api: Parameters<SliceCreator<SessionsSlice>>[2]) {
  return async function makeNewChat(options: { carryDraft: boolean }): Promise<ActionResult> {
    const previous = get().currentSessionId;
    // The window shows the new, empty chat at once: what is typed meanwhile belongs to it, not
    // to the chat that was open (main answers in its own time).
    if (options.carryDraft) set({ currentSessionId: null, composerError: null, newChatDraft: '' });
    try {
      let session = await api.call('newSession', {});
      // Main hands back its newest empty chat. The one a Send of this window is still putting its
      // message in only looks empty (pressed in the same moment as that Send): ask again once main
      // has the message, so New chat is another chat and the message stays where it was typed.
      const onItsWay = get().messageOnItsWay(session.id);
      if (onItsWay) {
        await onItsWay;
        session = await api.call('newSession', {});
      }
      get().upsertSession(session);
      if (options.carryDraft) {
        const typed = get().newChatDraft;
        if (typed) get().saveDraft(session.id, typed);
        set({ newChatDraft: '' });
        // The user picked another chat while main was making this one: they stay there.
        if (get().currentSessionId !== null) return OK;
      }
      return await get().openSession(session.id);
    } catch (error) {
      // Back to the chat that was open, so nothing typed is lost and the window is not left empty.
      if (options.carryDraft && previous && get().currentSessionId === null) await get().openSession(previous);
      const result = failed(error);
      if (!result.ok) get().setLastError(result.message);
      return result;
    }
  };
}

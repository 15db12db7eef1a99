import type { AssistantItem, RunState } from '../../../shared/transcript';
import { failed, OK } from './errors';
import { withDelta, withFinished, withItem, withSnapshot } from './transcript-window';
import type { ChatSlice, SliceCreator } from './types';
import { chatKey } from './attachments-slice';
import { saveTextFile } from '../lib/save-text-file';

const ANNOUNCEMENT: Record<AssistantItem['status'], string> = {
  streaming: 'Claude replied.',
  done: 'Claude replied.',
  stopped: 'Claude stopped.',
  error: "Claude's reply was interrupted.",
};

/**
 * What the polite live status says while a run is in each state: a reply that asks for tools is
 * not the end of a turn, so "Claude replied." waits for the run to end (issue 23), and a run that
 * waits on the user says on what.
 */
const WHILE: Record<Exclude<RunState['status'], 'idle'>, string> = {
  running: 'Claude is working.',
  retrying: 'Claude is working.',
  awaiting_approval: 'Waiting for you: Claude asks to run a tool. Approve or deny it.',
  awaiting_escalation: 'Waiting for you: a step needs your decision.',
  awaiting_question: 'Waiting for you: Claude asks you a question.',
};

export const createChatSlice: SliceCreator<ChatSlice> = (set, get, api) => {
  /** The last reply that finished in a run still going, per chat: announced when the run ends. */
  const replyEnded = new Map<string, string>();
  /** Per chat, this window's Send main has not answered yet: until it does, the chat may still look empty to main. */
  const onTheirWay = new Map<string, Promise<void>>();
  return {
    transcripts: {},
    runStates: {},
    announcement: '',
    composerError: null,
    applySnapshot(snapshot) {
      const { session, runState, plan } = snapshot;
      set((state) => ({
        transcripts: { ...state.transcripts, [session.id]: withSnapshot(state.transcripts[session.id], snapshot) },
        runStates: { ...state.runStates, [session.id]: runState },
      }));
      get().upsertSession(session);
      get().applyPlan(session.id, plan);
      get().setSubAgents(session.id, snapshot.subagents ?? []);
      get().setApproval(session.id, snapshot.pendingApproval ?? null);
      get().setEscalation(session.id, snapshot.pendingEscalation ?? null);
      get().setQuestion(session.id, snapshot.pendingQuestion ?? null);
    },
    upsertItem(sessionId, item, index) {
      get().changeWindow(sessionId, (window) => withItem(window, item, index));
    },
    appendDelta(sessionId, itemId, text, offset) {
      get().changeWindow(sessionId, (window) => withDelta(window, itemId, text, offset));
    },
    appendDeltas(batch) {
      get().changeWindows(batch.map(({ sessionId, itemId, text, offset }) => [sessionId, (window) => withDelta(window, itemId, text, offset)]));
    },
    finishMessage(sessionId, itemId, stopReason) {
      get().changeWindow(sessionId, (window) => withFinished(window, itemId, stopReason));
      // Main may already have upserted the final status; announce from whatever it is now.
      const item = get().transcripts[sessionId]?.items.findLast((i) => i.id === itemId);
      if (item?.kind !== 'assistant') return;
      const running = (get().runStates[sessionId]?.status ?? 'idle') !== 'idle';
      if (running) replyEnded.set(sessionId, ANNOUNCEMENT[item.status]);
      else if (sessionId === get().currentSessionId) set({ announcement: ANNOUNCEMENT[item.status] });
    },
    setRunState(sessionId, runState) {
      const was = get().runStates[sessionId]?.status ?? 'idle';
      set((state) => ({ runStates: { ...state.runStates, [sessionId]: runState } }));
      const ended = runState.status === 'idle' ? replyEnded.get(sessionId) : undefined;
      if (runState.status === 'idle') replyEnded.delete(sessionId);
      if (sessionId !== get().currentSessionId) return;
      if (runState.status !== 'idle') set({ announcement: WHILE[runState.status] });
      else if (ended) set({ announcement: ended });
      else if (was !== 'idle') set({ announcement: 'Claude stopped working.' });
    },
    announce: (text) => set({ announcement: text }),
    clearComposerError: () => set({ composerError: null }),
    async sendMessage(text) {
      const key = chatKey(get().currentSessionId);
      const pending = get().pendingAttachments[key] ?? [];
      const uploading = pending.find((p) => p.status === 'uploading');
      if (uploading) {
        const message = `"${uploading.name}" is still uploading; send when its chip is ready.`;
        set({ composerError: message });
        return { ok: false, message };
      }
      const attachments = pending.flatMap((p) => (p.attachment ? [{ id: p.attachment.id, name: p.attachment.name }] : []));
      let sessionId = get().currentSessionId;
      if (!sessionId) {
        // The chat New chat is making, when it is on its way (one chat, not two); else one for this message.
        const making = get().newChatInFlight;
        const created = await (making ?? get().newChat({ carryDraft: false })); // the text is being sent, not drafted
        sessionId = get().currentSessionId;
        // New chat kept what was typed as the chat's draft; it is this message, so it is not left to be sent twice.
        if (making && sessionId && get().draftOf(sessionId) === text) get().saveDraft(sessionId, '');
        if (!created.ok || !sessionId) {
          const message = created.ok ? 'Could not start a chat.' : created.message;
          set({ composerError: message });
          return { ok: false, message };
        }
      }
      try {
        set({ composerError: null });
        const sending = api.call('sendMessage', { sessionId, text, ...(attachments.length ? { attachments } : {}) });
        const settled = sending.then(
          () => undefined,
          () => undefined,
        );
        onTheirWay.set(sessionId, settled);
        void settled.then(() => onTheirWay.get(sessionId) === settled && onTheirWay.delete(sessionId));
        await sending;
        get().clearAttachments(key, pending.map((p) => p.localId));
        get().noteWritten(sessionId);
        // A refusal was about the files of the message just sent: it no longer applies.
        get().dismissAttachmentAlert();
        return OK;
      } catch (error) {
        const result = failed(error);
        if (!result.ok) set({ composerError: result.message });
        // Another process writes this chat: say who, and offer to take it over when that is safe to ask.
        get().noteRefusal(sessionId, error);
        return result;
      }
    },
    messageOnItsWay: (sessionId) => onTheirWay.get(sessionId),
    async exportChat(sessionId) {
      try {
        const { markdown, fileName } = await api.call('exportChat', { sessionId });
        saveTextFile(fileName, markdown);
        return OK;
      } catch (error) {
        return failed(error);
      }
    },
    async stop() {
      const sessionId = get().currentSessionId;
      if (!sessionId) return OK;
      try {
        const { stopped, reason } = await api.call('stop', { sessionId });
        // Stop elsewhere may not have stopped anything (its process did not answer): say so.
        if (!stopped && reason) set({ composerError: reason });
        return OK;
      } catch (error) {
        const result = failed(error);
        if (!result.ok) set({ composerError: result.message });
        return result;
      }
    },
  };
};

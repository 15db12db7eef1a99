import { type DragEvent, memo, useCallback, useMemo, useState } from 'react';
import { useWaypoint } from '../store/store-context';
import { chatKey } from '../store/attachments-slice';
import { isPlanVisible } from '../../../shared/plan';
import { PendingApproval } from './approval/PendingApproval';
import { PendingEscalation } from './escalation/PendingEscalation';
import { PendingQuestion } from './question/PendingQuestion';
import { lastReplyId } from './rerun/last-reply';
import { replyVersionsOf } from './rerun/reply-versions';
import { RunNotices } from './run/RunNotices';
import { canRetryNow } from './run/RetryNow';
import { Composer } from './Composer';
import { ContextBar } from './ContextBar';
import { ChatLogNotice } from './sessions/ChatLogNotice';
import { ChatWriterNotice } from './sessions/ChatWriterNotice';
import { useChatWriter } from './sessions/use-chat-writer';
import { TakeOverDialog } from './sessions/TakeOverDialog';
import { ResumeBar } from './sessions/ResumeBar';
import { InlineTaskPlan } from './plan/InlineTaskPlan';
import { Transcript } from './transcript/Transcript';
import { FindBar } from './find/FindBar';
import { NoWorkspaceNotice } from './workspace/NoWorkspaceNotice';

/** Rendered again only when what it shows changed (ChatView renders on every plan change). */
const ShownTranscript = memo(Transcript);

/**
 * The current chat: transcript, the plan panel right above the composer, the composer.
 * Memoised and subscribed to "working" rather than the run's phase, so the events every reply
 * brings (its cost, each phase) do not render the chat and its plan again (issue 15 item 4).
 */
export const ChatView = memo(function ChatView() {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  const items = useWaypoint((s) => (sessionId ? s.transcripts[sessionId]?.items : undefined));
  const olderItems = useWaypoint((s) => (sessionId ? (s.transcripts[sessionId]?.olderItems ?? 0) : 0));
  const loadingOlder = useWaypoint((s) => (sessionId ? !!s.loadingOlder[sessionId] : false));
  const loadOlder = useWaypoint((s) => s.loadOlder);
  // Stable, so the memoised transcript does not render again for a new function each time.
  const onNeedOlder = useCallback((want: 'page' | 'all') => void (sessionId && loadOlder(sessionId, { kind: want })), [sessionId, loadOlder]);
  const plan = useWaypoint((s) => (sessionId ? s.plans[sessionId] : null));
  // A queued chat counts as working here: its message waits for a slot, and Stop takes it off the queue.
  const working = useWaypoint((s) => (sessionId ? (s.runStates[sessionId]?.status ?? 'idle') !== 'idle' || !!s.sessions.find((c) => c.id === sessionId)?.queued : false));
  const announcement = useWaypoint((s) => s.announcement);
  const composerError = useWaypoint((s) => s.composerError);
  const sendMessage = useWaypoint((s) => s.sendMessage);
  const stop = useWaypoint((s) => s.stop);
  const clearComposerError = useWaypoint((s) => s.clearComposerError);
  const draftOf = useWaypoint((s) => s.draftOf);
  const saveDraft = useWaypoint((s) => s.saveDraft);
  // Only while New chat is being made (no id yet) is there anything to follow here.
  const newChatDraft = useWaypoint((s) => (sessionId ? '' : s.newChatDraft));
  const setNewChatDraft = useWaypoint((s) => s.setNewChatDraft);
  const attachments = useWaypoint((s) => s.pendingAttachments[chatKey(sessionId)]);
  const attachmentAlert = useWaypoint((s) => s.attachmentAlert);
  const addFiles = useWaypoint((s) => s.addFiles);
  const removeAttachment = useWaypoint((s) => s.removeAttachment);
  const dismissAttachmentAlert = useWaypoint((s) => s.dismissAttachmentAlert);
  const reveal = useWaypoint((s) => (s.reveal?.sessionId === sessionId ? s.reveal : null));
  const findQuery = useWaypoint((s) => (s.findOpen ? s.findQuery : ''));
  const findCurrent = useWaypoint((s) => (s.findOpen ? (s.findResult?.matches[s.findIndex] ?? null) : null));
  const findMarks = useMemo(() => (findQuery ? { query: findQuery, current: findCurrent } : null), [findQuery, findCurrent]);
  const writer = useChatWriter(sessionId);
  const [dropping, setDropping] = useState(false);
  // Files dropped anywhere on the chat join the next message.
  const hasFiles = (event: DragEvent) => !damaged && event.dataTransfer.types.includes('Files');
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!dropping) setDropping(true);
  };
  const onDrop = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDropping(false);
    void addFiles([...event.dataTransfer.files]);
  };
  // A damaged chat is read-only: no composer (ChatLogNotice says why and offers the export).
  const damaged = useWaypoint((s) => !!s.sessions.find((x) => x.id === sessionId)?.damaged);
  // A stuck step's question sits at that step in the plan panel (or here when there is no panel).
  const escalation = useWaypoint((s) => (sessionId ? (s.escalations[sessionId] ?? null) : null));
  const attention = useMemo(() => (escalation ? { stepId: escalation.stepId, element: <PendingEscalation sessionId={sessionId} /> } : undefined), [escalation, sessionId]);
  // Edit message on every message (main refuses it mid-run and says so); Retry reply on the last reply while Claude is idle.
  const retryId = !working && !damaged && items ? lastReplyId(items) : null;
  // "Retry now" sits in the error notice it answers, not far below it above the composer.
  const retryNoticeId = !damaged && canRetryNow(items, !working) ? (items?.at(-1)?.id ?? null) : null;
  // A retried reply shows its versions on its last text (reply-versions.ts).
  const replyVersions = useMemo(() => replyVersionsOf(items ?? []), [items]);
  const controls = useMemo(
    () => (sessionId ? { sessionId, editable: !damaged, retryId, retryNoticeId, working, replyVersions } : undefined),
    [sessionId, damaged, retryId, retryNoticeId, working, replyVersions],
  );

  return (
    <div
      className={`chat${dropping ? ' chat--dropping' : ''}`}
      onDragOver={onDragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={onDrop}
    >
      {/* While files are dragged over the chat, it says what dropping them does. */}
      {dropping && (
        <div className="drop-target">
          <p>Drop files to attach them to your message</p>
        </div>
      )}
      <FindBar />
      {/* Keyed by chat: each chat opens at its end with its own measured rows. */}
      <ShownTranscript
        key={sessionId ?? 'none'}
        items={items}
        loading={!!sessionId && !items}
        olderItems={olderItems}
        loadingOlder={loadingOlder}
        onNeedOlder={onNeedOlder}
        announcement={announcement}
        reveal={reveal}
        findMarks={findMarks}
        {...(controls ? { controls } : {})}
      />
      <div className="chat-bottom">
        <RunNotices sessionId={sessionId} />
        <ResumeBar />
        <InlineTaskPlan plan={plan} attention={attention} />
        {attention && !isPlanVisible(plan) && attention.element}
        <PendingApproval sessionId={sessionId} />
        <PendingQuestion sessionId={sessionId} />
        <ChatLogNotice />
        <ChatWriterNotice />
        <TakeOverDialog />
        {!damaged && <NoWorkspaceNotice />}
        {!damaged && (
          <Composer
            key={sessionId ?? 'none'}
            working={working}
            error={composerError}
            onSend={sendMessage}
            onStop={() => void stop()}
            onEdit={clearComposerError}
            draft={sessionId ? draftOf(sessionId) : newChatDraft}
            onDraftChange={(text: string) => (sessionId ? saveDraft(sessionId, text) : setNewChatDraft(text))}
            attachments={attachments ?? []}
            attachmentAlert={attachmentAlert}
            onAttach={(files) => void addFiles(files)}
            onRemoveAttachment={removeAttachment}
            onDismissAttachmentAlert={dismissAttachmentAlert}
            footer={<ContextBar sessionId={sessionId} working={working} />}
            {...(writer ? { heldBy: writer.holder } : {})}
          />
        )}
      </div>
    </div>
  );
});

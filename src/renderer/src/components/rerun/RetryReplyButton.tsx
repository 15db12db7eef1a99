import { useState } from 'react';
import type { RerunPreview } from '../../store/rerun-slice';
import { useWaypoint } from '../../store/store-context';
import { offersSomething, RestoreFilesOffer } from './RestoreFilesOffer';

/**
 * "Retry reply" on the last reply (among its tools): asks again with the same message; the new reply
 * replaces this one. When Claude's tools changed files in the turn it replaces (or ran commands),
 * it first offers to put the files back, as Edit message does; otherwise it retries at once.
 */
export function RetryReplyButton({ sessionId }: { sessionId: string }) {
  const retryReply = useWaypoint((s) => s.retryReply);
  const previewRerun = useWaypoint((s) => s.previewRerun);
  // The message the retried turn answers (the transcript window always holds the end of the chat).
  const lastUserId = useWaypoint((s) => s.transcripts[sessionId]?.items.findLast((i) => i.kind === 'user')?.id);
  const [busy, setBusy] = useState(false);
  const [offer, setOffer] = useState<RerunPreview | null>(null);
  const [restore, setRestore] = useState(false);

  const retry = (restoreFiles: boolean) => {
    setBusy(true);
    void retryReply(sessionId, restoreFiles).finally(() => {
      setBusy(false);
      setOffer(null);
    });
  };
  const start = async () => {
    setBusy(true);
    const preview = lastUserId ? await previewRerun(sessionId, lastUserId) : null;
    setBusy(false);
    if (preview?.ok && offersSomething(preview)) setOffer({ files: preview.files, commands: preview.commands });
    else retry(false);
  };

  if (!offer) {
    return (
      <button type="button" className="msg-tool" disabled={busy} onClick={() => void start()}>
        Retry reply
      </button>
    );
  }
  return (
    <div className="msg-retry-offer" role="group" aria-label="Retry reply">
      <RestoreFilesOffer preview={offer} replaced="the replaced turn" restore={restore} onRestore={setRestore} disabled={busy} />
      <div className="msg-edit-actions">
        <button type="button" className="btn" onClick={() => setOffer(null)} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="btn btn--primary" onClick={() => retry(restore)} disabled={busy}>
          Retry reply
        </button>
      </div>
    </div>
  );
}

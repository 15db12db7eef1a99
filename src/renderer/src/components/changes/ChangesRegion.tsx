import { useCallback, useEffect, useId, useState } from 'react';
import type { CallOutput } from '../../../../shared/contract';
import type { ChangedFile } from '../../../../shared/worktree';
import { useWaypoint } from '../../store/store-context';
import { DiffLines } from '../diff/DiffLines';
import './changes.css';

type Listing = CallOutput<'getChanges'>;

/** "+3 −1", or "binary" when git could not count lines. */
function linesText(file: ChangedFile): string {
  if (file.added === null || file.removed === null) return 'binary';
  return `+${file.added} −${file.removed}`;
}

const STATUS_WORDS: Record<ChangedFile['status'], string> = { added: 'created', modified: 'changed', deleted: 'deleted' };

/**
 * The region "Changes": every file the chat changed with its lines added and removed, "Show diff"
 * and "Revert file" on each; for a chat in a git worktree also "Merge into BRANCH" and "Discard
 * worktree" (asked again before it goes). Every outcome, a refusal included, is said in the region.
 */
export function ChangesRegion({ sessionId }: { sessionId: string }) {
  const call = useWaypoint((s) => s.changesCall);
  const close = useWaypoint((s) => s.openChanges);
  const headingId = useId();
  const [listing, setListing] = useState<Listing | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [diffs, setDiffs] = useState<Record<string, string>>({});
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const result = await call('getChanges', { sessionId });
    if (result.ok) setListing(result.value);
    else setMessage(result.message);
  }, [call, sessionId]);
  useEffect(() => {
    setListing(null);
    setDiffs({});
    setMessage(null);
    void load();
  }, [load]);

  const act = async (work: () => Promise<string | null>) => {
    setBusy(true);
    const said = await work();
    setBusy(false);
    setMessage(said);
  };
  const showDiff = (path: string) =>
    act(async () => {
      if (diffs[path] !== undefined) {
        setDiffs(({ [path]: _shown, ...rest }) => rest);
        return null;
      }
      const result = await call('getFileDiff', { sessionId, path });
      if (!result.ok) return result.message;
      setDiffs((d) => ({ ...d, [path]: result.value.diff }));
      return null;
    });
  const revert = (path: string) =>
    act(async () => {
      const result = await call('revertFile', { sessionId, path });
      if (!result.ok) return result.message;
      setListing((l) => (l ? { ...l, files: result.value.files } : l));
      setDiffs(({ [path]: _gone, ...rest }) => rest);
      return `${path} reverted.`;
    });
  const worktree = listing?.worktree ?? null;
  const merge = () =>
    act(async () => {
      const result = await call('mergeWorktree', { sessionId });
      return result.ok ? `Merged into ${worktree?.baseBranch ?? 'the branch'} (${result.value.commit.slice(0, 7)}).` : result.message;
    });
  const discard = () =>
    act(async () => {
      setConfirmDiscard(false);
      const result = await call('discardWorktree', { sessionId });
      if (!result.ok) return result.message;
      await load();
      return `Worktree discarded: this chat now works in ${result.value.session.workspace ?? 'its folder'}.`;
    });

  return (
    <section className="changes" role="region" aria-labelledby={headingId}>
      <div className="changes-head">
        <h2 id={headingId}>Changes</h2>
        {worktree && <span className="changes-branch">{worktree.branch}</span>}
        <button type="button" className="btn" onClick={() => close(null)}>Close changes</button>
      </div>
      {listing?.note && <p className="hint">{listing.note}</p>}
      {message && <p className="changes-message" role="status">{message}</p>}
      {!listing && !message && <p className="hint">Looking for changes…</p>}
      {listing && listing.files.length === 0 && <p>This chat has changed no files.</p>}
      {listing && listing.files.length > 0 && (
        <ul className="changes-list">
          {listing.files.map((file) => (
            <li key={file.path} className="changes-file">
              <span className="changes-path">{file.path}</span>
              <span className="changes-status">{STATUS_WORDS[file.status]}</span>
              <span className="changes-lines" aria-label={file.added === null ? 'binary file' : `${file.added} lines added, ${file.removed} removed`}>
                {linesText(file)}
              </span>
              <button type="button" className="btn" disabled={busy} aria-expanded={diffs[file.path] !== undefined} onClick={() => void showDiff(file.path)}>
                Show diff
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => void revert(file.path)}>
                Revert file
              </button>
              {diffs[file.path] !== undefined && (
                <pre className="changes-diff" aria-label={`Diff of ${file.path}`}>
                  <DiffLines lines={(diffs[file.path] ?? '').split('\n')} />
                </pre>
              )}
            </li>
          ))}
        </ul>
      )}
      {worktree && (
        <div className="changes-actions">
          {worktree.baseBranch && (
            <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void merge()}>
              Merge into {worktree.baseBranch}
            </button>
          )}
          {confirmDiscard ? (
            <span role="group" aria-label="Confirm discard">
              <span>Discard the worktree and its branch {worktree.branch}? What the chat changed there is lost.</span>
              <button type="button" className="btn btn--danger" disabled={busy} onClick={() => void discard()}>Discard</button>
              <button type="button" className="btn" onClick={() => setConfirmDiscard(false)}>Cancel</button>
            </span>
          ) : (
            <button type="button" className="btn btn--danger" disabled={busy} onClick={() => setConfirmDiscard(true)}>
              Discard worktree
            </button>
          )}
        </div>
      )}
    </section>
  );
}

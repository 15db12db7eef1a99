import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { UserItem } from '../../../../shared/transcript';
import type { RerunPreview } from '../../store/rerun-slice';
import { useWaypoint } from '../../store/store-context';
import { RestoreFilesOffer } from './RestoreFilesOffer';

interface Props {
  sessionId: string;
  item: UserItem;
  onClose(): void;
}

/**
 * "Edit message" opened (docs/contract.md §5): the message's text in "Edited message" and "Save and
 * rerun". That message and everything after it are replaced; the chat as it was stays as an
 * earlier version. When Claude's tools changed files in the turns it replaces (in a plan or not),
 * a box offers to put them back first. Escape cancels; Ctrl/⌘+Enter saves.
 */
export function EditMessageForm({ sessionId, item, onClose }: Props) {
  const id = useId();
  const [text, setText] = useState(item.text);
  const [preview, setPreview] = useState<RerunPreview>({ files: [], commands: 0 });
  const [restore, setRestore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const editMessage = useWaypoint((s) => s.editMessage);
  const previewRerun = useWaypoint((s) => s.previewRerun);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const textarea = box.current;
    textarea?.focus();
    textarea?.setSelectionRange(textarea.value.length, textarea.value.length);
    let live = true;
    void previewRerun(sessionId, item.id).then((result) => {
      if (live && result.ok) setPreview({ files: result.files, commands: result.commands });
    });
    return () => {
      live = false;
    };
  }, [previewRerun, sessionId, item.id]);

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim()) {
      setProblem('The message is empty: write something, or press Cancel.');
      return;
    }
    setBusy(true);
    setProblem(null);
    const result = await editMessage(sessionId, item.id, text, restore);
    setBusy(false);
    // Saved: the message is replaced in every window by main's event, and this form goes with it.
    if (!result.ok) setProblem(result.message);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void save();
  };

  return (
    <form className="msg msg--user msg-edit-form" aria-label="Edit message" onSubmit={save}>
      <textarea
        ref={box}
        aria-label="Edited message"
        aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
        aria-invalid={problem ? true : undefined}
        value={text}
        rows={Math.min(12, Math.max(2, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={busy}
      />
      <p id={`${id}-hint`} className="hint">
        This message and everything after it are replaced. The chat as it is now stays in the list as an earlier version.
      </p>
      <RestoreFilesOffer preview={preview} replaced="the replaced turns" restore={restore} onRestore={setRestore} disabled={busy} />
      {problem && (
        <p id={`${id}-problem`} className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="msg-edit-actions">
        <button type="button" className="btn" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          Save and rerun
        </button>
      </div>
    </form>
  );
}

import { useId, useRef } from 'react';
import { useFocusTrap } from '../settings/use-focus-trap';
import { useWaypoint } from '../../store/store-context';

/** The confirmation before a chat is deleted for good (its folder on disk goes with it). */
export function DeleteChatDialog() {
  const pending = useWaypoint((s) => s.pendingDelete);
  const title = useWaypoint((s) => s.sessions.find((x) => x.id === s.pendingDelete)?.title);
  if (!pending) return null;
  return <Dialog title={title ?? 'this chat'} />;
}

function Dialog({ title }: { title: string }) {
  const confirm = useWaypoint((s) => s.confirmDelete);
  const cancel = useWaypoint((s) => s.requestDelete);
  const ref = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const bodyId = useId();
  useFocusTrap(ref, () => cancel(null));
  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal" role="alertdialog" aria-modal="true" aria-labelledby={headingId} aria-describedby={bodyId}>
        <h2 id={headingId}>Delete chat?</h2>
        <p id={bodyId}>
          “{title}” and its messages and plan will be removed from this computer. This cannot be undone.
        </p>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => cancel(null)}>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={() => void confirm()}>
            Delete
          </button>
        </div>
      </div>
    </div>
  );
}

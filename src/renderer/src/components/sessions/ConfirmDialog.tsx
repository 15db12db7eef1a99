import { useId, useRef, type ReactNode } from 'react';
import { useFocusTrap } from '../settings/use-focus-trap';

/**
 * A modal question before something that cannot be taken back (deleting a chat, taking one over
 * from another process): Cancel first, the action in danger colour; Escape and focus stay inside.
 */
export function ConfirmDialog({ title, children, action, onConfirm, onCancel }: { title: string; children: ReactNode; action: string; onConfirm: () => void; onCancel: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const bodyId = useId();
  useFocusTrap(ref, onCancel);
  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal" role="alertdialog" aria-modal="true" aria-labelledby={headingId} aria-describedby={bodyId}>
        <h2 id={headingId}>{title}</h2>
        <div id={bodyId}>{children}</div>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={onConfirm}>
            {action}
          </button>
        </div>
      </div>
    </div>
  );
}

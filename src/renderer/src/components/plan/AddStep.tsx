import { useRef, useState } from 'react';
import { useWaypoint } from '../../store/store-context';

/**
 * Below the steps: "Add step" opens textbox "New step"; Enter adds a pending step at the end
 * (docs/contract.md §5), Escape closes it. Claude hears of it in its next request.
 */
export function AddStep({ sessionId }: { sessionId: string }) {
  const editPlan = useWaypoint((s) => s.editPlan);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const [saving, setSaving] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    setTitle('');
    // The button comes back on the next render: give it the focus then.
    requestAnimationFrame(() => button.current?.focus());
  };
  if (!open) {
    return (
      <button ref={button} type="button" className="btn btn--small plan-add-step" onClick={() => setOpen(true)}>
        Add step
      </button>
    );
  }
  return (
    <input className="plan-new-step" aria-label="New step" placeholder="Title of the new step, then Enter" autoFocus value={title} readOnly={saving}
      onChange={(event) => setTitle(event.target.value)}
      onKeyDown={async (event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          close();
        }
        if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
        event.preventDefault();
        setSaving(true);
        const result = await editPlan(sessionId, { kind: 'add', title });
        setSaving(false);
        if (result.ok) close();
      }} />
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import type { UndoPreview } from '../../store/escalation-slice';
import { useWaypoint } from '../../store/store-context';
import './escalation.css';

type Phase =
  | { kind: 'idle'; message: string | null }
  | { kind: 'confirm'; files: UndoPreview; overwrite: boolean }
  | { kind: 'busy' };

function outcomeText(o: { restored: string[]; deleted: string[]; skipped: string[] }): string {
  const parts = [
    o.restored.length ? `restored ${o.restored.join(', ')}` : '',
    o.deleted.length ? `removed ${o.deleted.join(', ')}` : '',
    o.skipped.length ? `left ${o.skipped.join(', ')} alone (changed outside Waypoint)` : '',
  ].filter(Boolean);
  return parts.length ? `Undo plan: ${parts.join('; ')}.` : 'Undo plan: nothing to change.';
}

/**
 * "Undo plan" (`available` false: nothing is left to undo, so only the outcome of the last one shows): asks main what it would change, lists the files for confirmation (flagging those
 * changed outside Waypoint since, which stay untouched unless the user ticks the box), then undoes.
 */
export function UndoPlanButton({ available = true }: { available?: boolean }) {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  const previewUndoPlan = useWaypoint((s) => s.previewUndoPlan);
  const undoPlan = useWaypoint((s) => s.undoPlan);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle', message: null });
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Focus goes back to the button once it is enabled again (a disabled button cannot take it),
  // so keyboard users are not dropped on <body> when the confirmation closes.
  const returnFocus = useRef(false);
  useEffect(() => {
    if (phase.kind !== 'idle' || !returnFocus.current) return;
    returnFocus.current = false;
    buttonRef.current?.focus();
  }, [phase]);
  const close = (message: string | null) => {
    returnFocus.current = true;
    setPhase({ kind: 'idle', message });
  };
  if (!sessionId) return null;

  const open = async () => {
    setPhase({ kind: 'busy' });
    const result = await previewUndoPlan(sessionId);
    if (!result.ok) close(result.message);
    else if (result.files.length === 0) close('Undo plan: this plan has not changed any files.');
    else setPhase({ kind: 'confirm', files: result.files, overwrite: false });
  };
  const confirm = async (overwrite: boolean) => {
    setPhase({ kind: 'busy' });
    const result = await undoPlan(sessionId, overwrite);
    close(result.ok ? outcomeText(result.outcome) : result.message);
  };

  return (
    <>
      {/* Nothing left to undo: no button, but what the last undo did stays said. */}
      {(available || phase.kind !== 'idle') && (
        <button ref={buttonRef} type="button" className="btn btn--small" disabled={phase.kind !== 'idle'} onClick={() => void open()}>
          Undo plan
        </button>
      )}
      {phase.kind === 'idle' && phase.message && (
        <span role="status" className="muted">
          {phase.message}
        </span>
      )}
      {phase.kind === 'confirm' && (
        <div className="undo-confirm" role="group" aria-labelledby={`${id}-q`}>
          <p id={`${id}-q`}>Undo the plan’s file changes?</p>
          <ul>
            {phase.files.map((file) => (
              <li key={file.path}>
                {file.action === 'delete' ? 'Delete' : 'Restore'} <code>{file.path}</code>
                {file.changedOutside && <strong> — changed outside Waypoint since</strong>}
              </li>
            ))}
          </ul>
          {phase.files.some((f) => f.changedOutside) && (
            <label>
              <input type="checkbox" checked={phase.overwrite} onChange={(e) => setPhase({ ...phase, overwrite: e.target.checked })} /> Also
              overwrite files changed outside Waypoint
            </label>
          )}
          <div className="undo-actions">
            <button type="button" className="btn btn--primary" autoFocus onClick={() => void confirm(phase.overwrite)}>
              Confirm undo
            </button>
            <button type="button" className="btn" onClick={() => close(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </>
  );
}

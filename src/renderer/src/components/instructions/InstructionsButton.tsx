import { useId, useRef, useState } from 'react';
import type { InstructionsView } from '../../../../shared/skills';
import { useFocusTrap } from '../settings/use-focus-trap';
import { useWaypoint } from '../../store/store-context';
import { Icon } from '../icons/Icon';
import './instructions.css';
import { formatCount } from '../../../../shared/numbers';

const count = (n: number) => `${formatCount(n)} ${n === 1 ? 'character' : 'characters'}`;

function sourceText(source: InstructionsView['sources'][number]): string {
  const parts = [count(source.chars)];
  if (source.importedBy) parts.push(`imported by ${source.importedBy}`);
  if (source.cut) parts.push('cut: past the 40,000-character limit');
  return parts.join(', ');
}

/** The files in the chat's system prompt, as main read them when the dialog opened (modal; Escape closes it). */
function InstructionsDialog({ view, onClose }: { view: InstructionsView; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  useFocusTrap(ref, onClose);
  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal instructions-dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-hint`}>
        <h2 id={`${id}-title`}>Instructions</h2>
        <p id={`${id}-hint`} className="hint">
          What Claude reads before every message of this chat: the workspace's AGENTS.md and CLAUDE.md (and those of its parent folders up to
          the repository root), the files they import with @path lines, and Settings "Instructions for every chat". A file edited on disk
          applies from the next message.
        </p>
        {view.sources.length === 0 ? (
          <p>No instructions are in use: this chat's workspace has no AGENTS.md or CLAUDE.md, and "Instructions for every chat" in Settings is empty.</p>
        ) : (
          <ul className="instructions-list" aria-label="Instruction files in use">
            {view.sources.map((source) => (
              <li key={`${source.name}:${source.importedBy ?? ''}`}>
                <code>{source.name}</code> <span className="hint">({sourceText(source)})</span>
              </li>
            ))}
          </ul>
        )}
        {view.notes.length > 0 && (
          <>
            <h3>Notes</h3>
            <ul className="instructions-notes">
              {view.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn--primary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

/** The chat header's "Instructions": lists the files in use, read when pressed. */
export function InstructionsButton({ sessionId }: { sessionId: string }) {
  const loadInstructions = useWaypoint((s) => s.loadInstructions);
  const setLastError = useWaypoint((s) => s.setLastError);
  const [view, setView] = useState<InstructionsView | null>(null);
  const open = async () => {
    const loaded = await loadInstructions(sessionId);
    if (loaded.ok) setView(loaded.value);
    else setLastError(`The instructions could not be read: ${loaded.message}`);
  };
  return (
    <>
      {/* An icon, like Find and the shortcuts: the header keeps one row down to 800 px wide. */}
      <button type="button" className="btn btn--icon" aria-label="Instructions" title="Instructions: the files Claude reads in this chat" aria-haspopup="dialog"
        onClick={() => void open()}>
        <Icon name="file" />
      </button>
      {view && <InstructionsDialog view={view} onClose={() => setView(null)} />}
    </>
  );
}

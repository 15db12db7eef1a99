import { useId, useRef } from 'react';
import type { ChatWriter } from '../../../../shared/chat-writer';
import { useFocusTrap } from '../settings/use-focus-trap';
import { useWaypoint } from '../../store/store-context';
import { describeWriter } from './ChatWriterNotice';

/** The confirmation before this window takes over a chat another process may still write. */
export function TakeOverDialog() {
  const writer = useWaypoint((s) => (s.pendingTakeOver ? (s.chatWriters[s.pendingTakeOver] ?? null) : null));
  if (!writer) return null;
  return <Dialog writer={writer} />;
}

function Dialog({ writer }: { writer: ChatWriter }) {
  const confirm = useWaypoint((s) => s.confirmTakeOver);
  const cancel = useWaypoint((s) => s.requestTakeOver);
  const ref = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const bodyId = useId();
  useFocusTrap(ref, () => cancel(null));
  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal" role="alertdialog" aria-modal="true" aria-labelledby={headingId} aria-describedby={bodyId}>
        <h2 id={headingId}>Take over this chat?</h2>
        <div id={bodyId}>
          <p>{describeWriter(writer)}</p>
          <p>
            Waypoint here will write this chat from now on. If {writer.holder} is still running, it notices, stops writing the chat and stops its run there; what it had
            not saved yet is not kept. The chat records who took it over from whom.
          </p>
        </div>
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => cancel(null)}>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={() => void confirm()}>
            Take over
          </button>
        </div>
      </div>
    </div>
  );
}

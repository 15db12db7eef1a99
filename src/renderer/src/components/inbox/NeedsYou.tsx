import { useId, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useWaypoint } from '../../store/store-context';
import { useFocusTrap } from '../settings/use-focus-trap';
import { type WaitingChat, waitingChats, waitingCount } from './waiting-chats';

/**
 * The header's "Needs you (N)": always there, N the chats waiting for a person. It opens dialog
 * "Needs you", one item per waiting chat with what is asked and "Open chat", which opens that
 * chat at its prompt (where the answer buttons are; answering in the dialog itself comes next).
 */
export function NeedsYouButton() {
  const count = useWaypoint(waitingCount);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    queueMicrotask(() => button.current?.focus());
  };
  return (
    <>
      <button ref={button} type="button" className={`btn header-needs-you${count ? ' header-needs-you--waiting' : ''}`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Needs you ({count})
      </button>
      {open && <NeedsYouDialog onClose={close} onOpened={() => setOpen(false)} />}
    </>
  );
}

function NeedsYouDialog({ onClose, onOpened }: { onClose(): void; onOpened(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const headingId = useId();
  // Each chat as a string, so a shallow compare keeps the list while nothing in it changed.
  const chats = useWaypoint(useShallow((s) => waitingChats(s).map((c) => JSON.stringify(c))));
  const openSession = useWaypoint((s) => s.openSession);
  useFocusTrap(ref, onClose);
  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal" role="dialog" aria-modal="true" aria-labelledby={headingId}>
        <h2 id={headingId}>Needs you</h2>
        {chats.length === 0 ? (
          <p>No chat is waiting for you.</p>
        ) : (
          <ul className="needs-you-list">
            {chats.map((line) => {
              const { id, title, asked } = JSON.parse(line) as WaitingChat;
              return (
                <li key={id} className="needs-you-item">
                  <strong>{title}</strong>
                  <p>{asked}</p>
                  <button
                    type="button"
                    className="btn"
                    onClick={() => {
                      onOpened();
                      void openSession(id);
                    }}
                  >
                    Open chat
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

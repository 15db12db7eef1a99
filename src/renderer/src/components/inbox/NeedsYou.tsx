import { type RefObject, useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useWaypoint } from '../../store/store-context';
import { PromptTakesFocus } from '../prompt/prompt-focus';
import { useFocusTrap } from '../settings/use-focus-trap';
import { INBOX_PROMPTS } from './inbox-prompts';
import { type WaitingChat, waitingChats, waitingCount } from './waiting-chats';
import './inbox.css';

/**
 * The header's "Needs you (N)": always there, N the chats waiting for a person. It opens dialog
 * "Needs you", one item per waiting chat with what is asked, the chat's own answer controls
 * (INBOX_PROMPTS) and "Open chat". An answer there is the chat's answer: the run goes on in the
 * background and the item leaves.
 */
export function NeedsYouButton() {
  const count = useWaypoint(waitingCount);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Stable, so the dialog's focus trap is not torn down (and the focus sent back here) when the count changes.
  const close = useCallback(() => {
    setOpen(false);
    queueMicrotask(() => button.current?.focus());
  }, []);
  const opened = useCallback(() => setOpen(false), []);
  return (
    <>
      <button ref={button} type="button" className={`btn header-needs-you${count ? ' header-needs-you--waiting' : ''}`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Needs you ({count})
      </button>
      {open && <NeedsYouDialog onClose={close} onOpened={opened} />}
    </>
  );
}

function NeedsYouDialog({ onClose, onOpened }: { onClose(): void; onOpened(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const chats = useWaypoint(waitingChats);
  const loadPendingPrompts = useWaypoint((s) => s.loadPendingPrompts);
  // The app's error banner is under the modal: what goes wrong while it is open (an answer another
  // window gave first: "already answered") is said here too.
  const lastError = useWaypoint((s) => s.lastError);
  const [errorAtOpen] = useState(lastError);
  const problem = lastError !== errorAtOpen ? lastError : null;
  useFocusTrap(ref, onClose);
  useFocusAfterAnswer(ref, chats);
  // A chat known only by the list's stamp (after a reload): main says what it asks.
  const unknown = chats.filter((chat) => chat.prompts.length === 0).map((chat) => chat.id);
  const unknownKey = unknown.join('\n');
  useEffect(() => {
    if (unknownKey) for (const id of unknownKey.split('\n')) void loadPendingPrompts(id);
  }, [unknownKey, loadPendingPrompts]);
  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal needs-you" role="dialog" aria-modal="true" aria-labelledby={headingId} tabIndex={-1}>
        <h2 id={headingId}>Needs you</h2>
        {problem && (
          <p className="needs-you-problem" role="alert">
            {problem}
          </p>
        )}
        {chats.length === 0 ? (
          <p>No chat is waiting for you.</p>
        ) : (
          <PromptTakesFocus.Provider value={false}>
            <ul className="needs-you-list">
              {chats.map((chat) => (
                <WaitingItem key={chat.id} chat={chat} onOpened={onOpened} />
              ))}
            </ul>
          </PromptTakesFocus.Provider>
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

/** One waiting chat: named by its title, so its answer buttons (named as in the chat) can be told apart from the next one's. */
function WaitingItem({ chat, onOpened }: { chat: WaitingChat; onOpened(): void }) {
  const titleId = useId();
  const openSession = useWaypoint((s) => s.openSession);
  return (
    <li className="needs-you-item" aria-labelledby={titleId}>
      <strong id={titleId}>{chat.title}</strong>
      <p>{chat.asked}</p>
      {chat.prompts.map((name) => {
        const { Prompt } = INBOX_PROMPTS[name]!;
        return <Prompt key={name} sessionId={chat.id} />;
      })}
      <button
        type="button"
        className="btn"
        onClick={() => {
          onOpened();
          void openSession(chat.id);
        }}
      >
        Open chat
      </button>
    </li>
  );
}

const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), input:not([disabled])';

/**
 * After an answer the answered controls go (or are disabled while it is sent) and the browser
 * drops the focus to the page; the person's place is the next item (the one that took the
 * answered one's place), else the dialog itself.
 */
function useFocusAfterAnswer(ref: RefObject<HTMLDivElement | null>, chats: WaitingChat[]): void {
  const previous = useRef(chats.map((chat) => chat.id));
  useLayoutEffect(() => {
    const before = previous.current;
    const ids = chats.map((chat) => chat.id);
    previous.current = ids;
    const dialog = ref.current;
    const focused = document.activeElement;
    if (!dialog || (focused && focused !== document.body && focused !== dialog)) return;
    const gone = before.findIndex((id) => !ids.includes(id));
    // Its prompt went but the chat still waits (its run not going yet): the dialog holds the focus until the item goes.
    if (gone < 0) return dialog.focus();
    const items = dialog.querySelectorAll<HTMLElement>('.needs-you-item');
    const next = items[Math.min(gone, items.length - 1)];
    (next?.querySelector<HTMLElement>(FOCUSABLE) ?? dialog).focus();
  }, [ref, chats]);
}

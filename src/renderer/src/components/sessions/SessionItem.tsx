import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { SessionSummary } from '../../../../shared/transcript';
import { Icon } from '../icons/Icon';
import { ChatTitle } from './ChatTitle';
import { folderName } from '../workspace/folders';
import { RUN_WORDS, useChatRun } from './use-chat-run';

interface Props {
  session: SessionSummary;
  current: boolean;
  onOpen(): void;
  onRename(title: string): void;
  onDelete(): void;
  /** "Pin chat" / "Unpin chat": pinned chats are listed first. */
  onPin?: (pinned: boolean) => void;
  /** "Export chat": the chat as Markdown, attachments included. */
  onExport?: () => void;
}

/** The title main gives a chat before its first message (sessions/chat-registry.ts). */
const UNTITLED = 'New chat';

/** A chat nobody has written in yet: its default title, and no activity since it was made. */
function isUntouched(session: SessionSummary): boolean {
  return session.title === UNTITLED && session.updatedAt === session.createdAt && !session.usage;
}

/** What the arrow keys move between in a row: the chat, then its actions. */
const ROW_CONTROL = '[data-row-control]';

/**
 * The arrow keys within the chat list: Left/Right (and Home/End) between a chat and its actions,
 * Up/Down to the chat above or below. Only the chat itself is a Tab stop, so Tab crosses a
 * hundred chats in a hundred presses rather than four hundred (issue 23).
 */
export function moveInList(event: KeyboardEvent<HTMLLIElement>): void {
  const target = event.target as HTMLElement;
  if (!target.matches(ROW_CONTROL)) return; // the title box keeps its keys
  const row = event.currentTarget;
  const controls = [...row.querySelectorAll<HTMLElement>(ROW_CONTROL)];
  const at = controls.indexOf(target);
  let next: HTMLElement | null | undefined;
  switch (event.key) {
    case 'ArrowRight':
      next = controls[Math.min(at + 1, controls.length - 1)];
      break;
    case 'ArrowLeft':
      next = controls[Math.max(at - 1, 0)];
      break;
    case 'Home':
      next = controls[0];
      break;
    case 'End':
      next = controls.at(-1);
      break;
    case 'ArrowDown':
      next = row.nextElementSibling?.querySelector<HTMLElement>(ROW_CONTROL);
      break;
    case 'ArrowUp':
      next = row.previousElementSibling?.querySelector<HTMLElement>(ROW_CONTROL);
      break;
    default:
      return;
  }
  event.preventDefault(); // the list must not scroll as well
  next?.focus();
}

/**
 * One chat in the sidebar, its list item included: opens on click; its title gets the row's whole width, with the
 * badges (interrupted, damaged, the plan's progress) on a line below; the actions show over the
 * title's end while the row is hovered or focused. "Rename chat" edits the title in place;
 * "Delete chat" asks first.
 */
export function SessionItem(props: Props) {
  const run = useChatRun(props.session);
  return (
    <li className="chat-item" data-run={run} onKeyDown={moveInList}>
      <SessionItemParts {...props} />
    </li>
  );
}

/**
 * What a chat's list item holds, for a list that makes the item itself (the virtualised list,
 * VirtualChatList.tsx, positions its items); the item must call `moveInList` on its keys.
 */
export function SessionItemParts({ session, current, onOpen, onRename, onDelete, onPin, onExport }: Props) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(session.title);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const pinButton = useRef<HTMLButtonElement>(null);
  // Pinning moves the row; a keyboard user keeps the focus on the button they pressed.
  const refocusPin = useRef(false);
  const pinned = session.pinned === true;

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  useEffect(() => {
    if (!refocusPin.current) return;
    refocusPin.current = false;
    pinButton.current?.focus();
  }, [pinned]);

  const finish = (save: boolean) => {
    setEditing(false);
    const title = draft.trim();
    if (save && title && title !== session.title) onRename(title);
    // Keyboard users land back where they started.
    queueMicrotask(() => renameButton.current?.focus());
  };

  const progress = session.planProgress?.status === 'active' ? session.planProgress : null;
  const runWords = RUN_WORDS[useChatRun(session)];
  const badges = runWords || session.interrupted || session.damaged || progress || session.workspace;
  const folderId = useId();

  return (
    <>
      {editing ? (
        <input
          ref={input}
          className="chat-rename"
          aria-label="Chat title"
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => finish(true)}
          onKeyDown={(e) => {
            // preventDefault: the key must not go on to "click" the Rename button that gets focus back.
            if (e.key === 'Enter' || e.key === 'Escape') e.preventDefault();
            if (e.key === 'Enter') finish(true);
            if (e.key === 'Escape') finish(false);
          }}
        />
      ) : (
        <button
          type="button"
          className="chat-link"
          data-row-control
          aria-current={current ? 'page' : undefined}
          onClick={onOpen}
          title={session.workspace ? `${session.title}\n${session.workspace}` : session.title}
          aria-describedby={session.workspace ? folderId : undefined}
        >
          <span className="chat-title-row">
            {pinned && <Icon name="pin" size={12} className="chat-pinned-mark" />}
            <ChatTitle title={session.title} />
            {/* Not a second button named exactly "New chat" beside the one that makes a chat. */}
            {isUntouched(session) && <span className="sr-only"> (empty)</span>}
          </span>
          {/* A space, so a screen reader hears "title, paused 0/2" rather than "titlepaused 0/2". */}
          {badges && ' '}
          {badges && (
            <span className="chat-badges">
              {/* "Working 2/5", "Queued", "Needs you": what the chat is doing, next to its plan's progress. */}
              {runWords && <span className={`chat-run chat-run--${runWords === 'Needs you' ? 'needs-you' : runWords.toLowerCase()}`}>{runWords}</span>}
              {runWords && (session.interrupted || session.damaged || progress) && ' '}
              {session.interrupted && <span className="chat-badge">interrupted</span>}
              {session.damaged && <span className="chat-badge">damaged</span>}
              {progress && (
                <span className="chat-progress">
                  {progress.paused && 'paused '}
                  {progress.completed}/{progress.total}
                </span>
              )}
              {/* The folder is the row's description, not part of the chat's name. */}
              {session.workspace && (
                <span className="chat-folder" aria-hidden="true">
                  {folderName(session.workspace)}
                </span>
              )}
            </span>
          )}
        </button>
      )}
      {!editing && session.workspace && (
        <span id={folderId} hidden>
          Workspace: {session.workspace}
        </span>
      )}
      <span className="chat-actions">
        {onPin && (
          <button
            ref={pinButton}
            type="button"
            className="chat-action"
            data-row-control
            tabIndex={-1}
            aria-label={pinned ? 'Unpin chat' : 'Pin chat'}
            title={pinned ? 'Unpin' : 'Pin to the top'}
            onClick={(event) => {
              refocusPin.current = document.activeElement === event.currentTarget;
              onPin(!pinned);
            }}
          >
            <Icon name="pin" size={14} />
          </button>
        )}
        <button
          ref={renameButton}
          type="button"
          className="chat-action"
          data-row-control
          tabIndex={-1}
          aria-label="Rename chat"
          title="Rename"
          onClick={() => {
            setDraft(session.title);
            setEditing(true);
          }}
        >
          <Icon name="pencil" size={14} />
        </button>
        {onExport && (
          <button
            type="button"
            className="chat-action"
            data-row-control
            tabIndex={-1}
            aria-label="Export chat"
            title="Export as Markdown, attachments included"
            onClick={onExport}
          >
            <Icon name="download" size={14} />
          </button>
        )}
        <button type="button" className="chat-action" data-row-control tabIndex={-1} aria-label="Delete chat" title="Delete" onClick={onDelete}>
          <Icon name="trash" size={14} />
        </button>
      </span>
    </>
  );
}

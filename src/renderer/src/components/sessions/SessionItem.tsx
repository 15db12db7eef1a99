import { useEffect, useRef, useState } from 'react';
import type { SessionSummary } from '../../../../shared/transcript';
import { Icon } from '../icons/Icon';
import { ChatTitle } from './ChatTitle';

interface Props {
  session: SessionSummary;
  current: boolean;
  onOpen(): void;
  onRename(title: string): void;
  onDelete(): void;
  /** "Export chat": the chat as Markdown, attachments included. */
  onExport?: () => void;
}

/** One chat in the sidebar: opens on click; "Rename chat" edits the title in place; "Delete chat" asks first. */
export function SessionItem({ session, current, onOpen, onRename, onDelete, onExport }: Props) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(session.title);
  const input = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  const finish = (save: boolean) => {
    setEditing(false);
    const title = draft.trim();
    if (save && title && title !== session.title) onRename(title);
    // Keyboard users land back where they started.
    queueMicrotask(() => renameButton.current?.focus());
  };

  return (
    <li className="chat-item">
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
        <button type="button" className="chat-link" aria-current={current ? 'page' : undefined} onClick={onOpen} title={session.title}>
          <ChatTitle title={session.title} />
          {session.interrupted && <span className="chat-badge">interrupted</span>}
          {session.damaged && <span className="chat-badge">damaged</span>}
          {session.planProgress && session.planProgress.status === 'active' && (
            <span className="chat-progress">
              {session.planProgress.paused && 'paused '}
              {session.planProgress.completed}/{session.planProgress.total}
            </span>
          )}
        </button>
      )}
      <span className="chat-actions">
        <button
          ref={renameButton}
          type="button"
          className="chat-action"
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
          <button type="button" className="chat-action" aria-label="Export chat" title="Export as Markdown, attachments included" onClick={onExport}>
            <Icon name="download" size={14} />
          </button>
        )}
        <button type="button" className="chat-action" aria-label="Delete chat" title="Delete" onClick={onDelete}>
          <Icon name="trash" size={14} />
        </button>
      </span>
    </li>
  );
}

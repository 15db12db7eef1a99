import { useRef, useState } from 'react';
import type { UserItem } from '../../../../shared/transcript';
import { UserMessage } from '../transcript/UserMessage';
import { EditMessageForm } from './EditMessageForm';
import { VersionNav } from './VersionNav';
import './rerun.css';

/**
 * A user message that holds "Edit message" (shown on hover and on focus, reachable by Tab) and,
 * once edited, its versions ("N/M", always shown). `repliesHere`: its retried reply has no text
 * to carry its own versions, so they show here.
 */
export function EditableUserMessage({ item, sessionId, working = false, repliesHere = false }: { item: UserItem; sessionId: string; working?: boolean; repliesHere?: boolean }) {
  const [editing, setEditing] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (editing) {
    return (
      <EditMessageForm
        sessionId={sessionId}
        item={item}
        onClose={() => {
          setEditing(false);
          requestAnimationFrame(() => button.current?.focus());
        }}
      />
    );
  }
  return (
    <UserMessage item={item}>
      <div className="msg-tools">
        <VersionNav sessionId={sessionId} item={item} of="message" locked={working} />
        {repliesHere && <VersionNav sessionId={sessionId} item={item} of="reply" locked={working} />}
        <button ref={button} type="button" className="msg-tool" onClick={() => setEditing(true)}>
          Edit message
        </button>
      </div>
    </UserMessage>
  );
}

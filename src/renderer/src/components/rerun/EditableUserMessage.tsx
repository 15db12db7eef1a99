import { useRef, useState } from 'react';
import type { UserItem } from '../../../../shared/transcript';
import { UserMessage } from '../transcript/UserMessage';
import { EditMessageForm } from './EditMessageForm';
import './rerun.css';

/** A user message that holds "Edit message" (shown on hover and on focus, reachable by Tab). */
export function EditableUserMessage({ item, sessionId }: { item: UserItem; sessionId: string }) {
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
        <button ref={button} type="button" className="msg-tool" onClick={() => setEditing(true)}>
          Edit message
        </button>
      </div>
    </UserMessage>
  );
}

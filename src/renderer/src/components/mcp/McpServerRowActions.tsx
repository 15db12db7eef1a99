import { useState } from 'react';
import { createPortal } from 'react-dom';
import { ConfirmDialog } from '../sessions/ConfirmDialog';

interface Props {
  name: string;
  onEdit(): void;
  onRemove(): void;
}

/**
 * "Edit server NAME" and "Remove server NAME" on a server saved in Settings (not one from
 * --mcp-config: that file is the user's to edit). Removing asks first.
 */
export function McpServerRowActions({ name, onEdit, onRemove }: Props) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" className="btn btn--small" aria-label={`Edit server ${name}`} onClick={onEdit}>
        Edit
      </button>
      <button type="button" className="btn btn--small" aria-label={`Remove server ${name}`} onClick={() => setAsking(true)}>
        Remove
      </button>
      {asking &&
        // In a portal: Settings' focus trap would otherwise take this question's Escape and Tab as its own.
        createPortal(
          <ConfirmDialog
            title={`Remove server ${name}?`}
            action="Remove"
            onCancel={() => setAsking(false)}
            onConfirm={() => {
              setAsking(false);
              onRemove();
            }}
          >
            <p>Its process ends and Claude no longer has its tools. The servers' JSON in Settings changes with it.</p>
          </ConfirmDialog>,
          document.body,
        )}
    </>
  );
}

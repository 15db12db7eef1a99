import { useLayoutEffect, useRef } from 'react';
import { formatBytes } from '../../../../shared/attachments';
import { cleanFileName } from '../../../../shared/attachment-names';
import type { PendingAttachment } from '../../store/attachments-slice';
import { Icon } from '../icons/Icon';
import { AttachmentThumb } from './AttachmentThumb';

interface Props {
  items: readonly PendingAttachment[];
  onRemove(localId: string): void;
  /** Where focus goes when the last chip is removed from the keyboard: the message box. */
  onEmptied(): void;
}

/**
 * The files waiting to go with the next message, as chips in a list named "Attachments"; each
 * has a button "Remove NAME" (docs/contract.md §5). A chip still uploading says how far it got.
 * Removing a chip whose button has the focus hands the focus on — to the next chip, else the
 * previous one, else the message box — instead of dropping it on the page (issue 23).
 */
export function PendingAttachments({ items, onRemove, onEmptied }: Props) {
  const list = useRef<HTMLUListElement>(null);
  // The chip to focus once the removed one is gone: its id, or null for the message box.
  const focusNext = useRef<{ localId: string | null } | null>(null);

  useLayoutEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    if (next.localId !== null && items.some((i) => i.localId === next.localId)) {
      focusNext.current = null;
      list.current?.querySelector<HTMLElement>(`[data-chip="${CSS.escape(next.localId)}"] .attachment-remove`)?.focus();
    } else if (next.localId === null && items.length === 0) {
      focusNext.current = null;
      onEmptied();
    }
  }, [items, onEmptied]);

  const remove = (localId: string, button: HTMLElement) => {
    if (document.activeElement === button) {
      const at = items.findIndex((i) => i.localId === localId);
      const neighbour = items[at + 1] ?? items[at - 1];
      focusNext.current = { localId: neighbour?.localId ?? null };
    }
    onRemove(localId);
  };

  if (items.length === 0) return null;
  return (
    <ul ref={list} className="pending-attachments" aria-label="Attachments">
      {items.map((item) => {
        // The name main will know the file by (controls and bidi overrides taken out), from the first moment.
        const name = cleanFileName(item.name);
        return (
          <li key={item.localId} data-chip={item.localId} className={`attachment-chip${item.status === 'uploading' ? ' attachment-chip--uploading' : ''}`}>
            {item.attachment ? (
              <AttachmentThumb attachment={item.attachment} />
            ) : (
              <span className="attachment">
                <Icon name="file" size={18} className="attachment-icon" />
                <span className="attachment-name">{name}</span>
                <span className="attachment-meta">
                  uploading {item.size ? Math.floor((100 * item.sent) / item.size) : 0}% of {formatBytes(item.size)}
                </span>
              </span>
            )}
            <button type="button" className="icon-button attachment-remove" aria-label={`Remove ${name}`} title={`Remove ${name}`} onClick={(event) => remove(item.localId, event.currentTarget)}>
              <Icon name="cross" size={14} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

import { formatBytes } from '../../../../shared/attachments';
import { cleanFileName } from '../../../../shared/attachment-names';
import type { PendingAttachment } from '../../store/attachments-slice';
import { Icon } from '../icons/Icon';
import { AttachmentThumb } from './AttachmentThumb';

/**
 * The files waiting to go with the next message, as chips in a list named "Attachments"; each
 * has a button "Remove NAME" (design.md §5). A chip still uploading says how far it got.
 */
export function PendingAttachments({ items, onRemove }: { items: readonly PendingAttachment[]; onRemove(localId: string): void }) {
  if (items.length === 0) return null;
  return (
    <ul className="pending-attachments" aria-label="Attachments">
      {items.map((item) => {
        // The name main will know the file by (controls and bidi overrides taken out), from the first moment.
        const name = cleanFileName(item.name);
        return (
          <li key={item.localId} className={`attachment-chip${item.status === 'uploading' ? ' attachment-chip--uploading' : ''}`}>
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
            <button type="button" className="icon-button attachment-remove" aria-label={`Remove ${name}`} title={`Remove ${name}`} onClick={() => onRemove(item.localId)}>
              <Icon name="cross" size={14} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

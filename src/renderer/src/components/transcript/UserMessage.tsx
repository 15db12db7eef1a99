import { useId, useMemo, useRef, type ReactNode } from 'react';
import type { UserItem } from '../../../../shared/transcript';
import { messagePreview } from './message-preview';
import { AttachmentThumb } from '../attachments/AttachmentThumb';
import { useDisclosure } from './use-disclosure';

/** The user's message; a long one collapses to its first lines with "Show all" / "Show less". `children`: its tools (Edit message). */
export function UserMessage({ item, children }: { item: UserItem; children?: ReactNode }) {
  const preview = useMemo(() => messagePreview(item.text), [item.text]);
  const [expanded, setExpanded] = useDisclosure(item.id);
  const bubbleId = useId();
  const ref = useRef<HTMLElement>(null);
  const collapsed = preview !== null && !expanded;
  return (
    <article ref={ref} className="msg msg--user" aria-label="You">
      {item.attachments && item.attachments.length > 0 && (
        <ul className="msg-attachments" aria-label="Attached files">
          {item.attachments.map((attachment, i) => (
            <li key={`${attachment.id}-${i}`}>
              <AttachmentThumb attachment={attachment} />
            </li>
          ))}
        </ul>
      )}
      {item.text.trim() && (
        <div id={bubbleId} className={`msg-bubble${collapsed ? ' msg-bubble--collapsed' : ''}`} data-find>
          {collapsed ? `${preview.text}…` : item.text}
        </div>
      )}
      {preview && (
        <div className="msg-expand">
          {collapsed && <span className="msg-expand-shown">Showing {preview.shown}</span>}
          <button
            type="button"
            className="link-button"
            aria-expanded={expanded}
            aria-controls={bubbleId}
            onClick={() => {
              setExpanded(!expanded);
              // Collapsing a very long message must not leave the reader far below it.
              if (expanded) requestAnimationFrame(() => ref.current?.scrollIntoView?.({ block: 'nearest' }));
            }}
          >
            {expanded ? 'Show less' : 'Show all'}
          </button>
        </div>
      )}
      {children}
    </article>
  );
}

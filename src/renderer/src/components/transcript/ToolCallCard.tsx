import { useId } from 'react';
import type { ToolCallItem } from '../../../../shared/transcript';
import { Icon } from '../icons/Icon';
import { AttachmentThumb } from '../attachments/AttachmentThumb';
import { useDisclosure } from './use-disclosure';

const STATUS_TEXT: Record<ToolCallItem['status'], string> = {
  running: 'running',
  awaiting_approval: 'awaiting approval',
  done: 'done',
  error: 'failed',
  denied: 'denied',
};

function formatInput(input: unknown): string {
  if (input === undefined) return '';
  try {
    return JSON.stringify(input, null, 2);
  } catch {
    return String(input);
  }
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A tool call as a compact card; input and result on expand. */
export function ToolCallCard({ item }: { item: ToolCallItem }) {
  const [open, setOpen] = useDisclosure(item.id);
  const bodyId = useId();
  return (
    <div className={`tool-card tool-card--${item.status}`}>
      <button
        type="button"
        className="tool-card-header"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
      >
        <span className="tool-card-name">{item.name}</span>
        {item.server && <span className="tool-card-server">{item.server}</span>}
        <span className="tool-card-summary" data-find>{item.summary}</span>
        <span className={`tool-card-status tool-card-status--${item.status}`}>{STATUS_TEXT[item.status]}</span>
        {item.durationMs !== undefined && <span className="tool-card-duration">{formatDuration(item.durationMs)}</span>}
        <Icon name="chevron" size={14} className={`chevron${open ? ' chevron--open' : ''}`} />
      </button>
      {item.images && item.images.length > 0 && (
        <ul className="tool-card-images" aria-label={`Images from ${item.name}`}>
          {item.images.map((image) => (
            <li key={image.id}>
              <AttachmentThumb attachment={image} />
            </li>
          ))}
        </ul>
      )}
      <div id={bodyId} className="tool-card-body" hidden={!open}>
        {open && (
          <>
            <h4>Input</h4>
            <pre className="tool-card-pre">{formatInput(item.input)}</pre>
            {item.result !== undefined && (
              <>
                <h4>Result{item.errorKind ? ` (${item.errorKind.replace(/_/g, ' ')})` : ''}</h4>
                <pre className="tool-card-pre" data-find>{item.result}</pre>
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}

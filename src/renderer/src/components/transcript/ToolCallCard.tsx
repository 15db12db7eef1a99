import { useId } from 'react';
import { PREPARING_WORKTREE, QUESTION_CANCELLED } from '../../../../shared/tool-results';
import type { ToolCallItem } from '../../../../shared/transcript';
import { Icon } from '../icons/Icon';
import { AttachmentThumb } from '../attachments/AttachmentThumb';
import { DiffLines, diffStart } from '../diff/DiffLines';
import { useDisclosure } from './use-disclosure';
import { WebSearchOutcome } from './WebLinks';

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

/**
 * A question the user cancelled with Stop ended as an error result, but nothing failed; a
 * changing call cut off by a crash, kill or Stop did not fail either: what it did is unknown.
 */
function shownStatus(item: ToolCallItem): ToolCallItem['status'] | 'cancelled' | 'interrupted' {
  if (item.status === 'error' && item.interrupted) return 'interrupted';
  return item.status === 'error' && item.result === QUESTION_CANCELLED ? 'cancelled' : item.status;
}

/**
 * The header's words for a tool: its name and summary; for an MCP tool, its summary alone
 * ("test: echo", the server and the tool as the server spells it), the server marked as such.
 * Its API name ("test__echo") and a server badge beside that summary named the tool three times.
 */
function ToolTitle({ item }: { item: ToolCallItem }) {
  const prefix = `${item.server}: `;
  if (item.server && item.summary.startsWith(prefix)) {
    // One find part, as main counts it (the summary): the spans only style it.
    return (
      <span className="tool-card-summary tool-card-summary--mcp" data-find>
        <span className="tool-card-server" title={`MCP server ${item.server}`}>
          {item.server}
        </span>
        {': '}
        <span className="tool-card-name">{item.summary.slice(prefix.length)}</span>
      </span>
    );
  }
  return (
    <>
      <span className="tool-card-name">{item.name}</span>
      {item.server && <span className="tool-card-server">{item.server}</span>}
      <span className="tool-card-summary" data-find>
        {item.summary}
      </span>
    </>
  );
}

/** A result that holds a unified diff (the file tools') is shown with its lines marked. */
function ResultText({ text }: { text: string }) {
  const lines = text.split('\n');
  const from = diffStart(lines);
  if (from < 0) return <pre className="tool-card-pre" data-find>{text}</pre>;
  return (
    <pre className="tool-card-pre tool-card-pre--diff" aria-label="Result diff" data-find>
      <DiffLines lines={lines} from={from} />
    </pre>
  );
}

/** A web search's query (the API's server tool takes `{query}`). */
function queryOf(input: unknown): string {
  const query = (input as { query?: unknown } | null)?.query;
  return typeof query === 'string' ? query : '';
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The header's status words: a call waiting for its chat's worktree checkout says so. */
function statusText(item: ToolCallItem, status: ReturnType<typeof shownStatus>): string {
  if (status === 'cancelled') return 'cancelled';
  if (status === 'interrupted') return 'Interrupted';
  if (status === 'running' && item.result === PREPARING_WORKTREE) return 'Preparing worktree…';
  return STATUS_TEXT[status];
}

/** A tool call as a compact card; input and result on expand. */
export function ToolCallCard({ item }: { item: ToolCallItem }) {
  const [open, setOpen] = useDisclosure(item.id);
  const bodyId = useId();
  const status = shownStatus(item);
  return (
    <div className={`tool-card tool-card--${status}`}>
      <button
        type="button"
        className="tool-card-header"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
      >
        <ToolTitle item={item} />
        <span className={`tool-card-status tool-card-status--${status}`}>{statusText(item, status)}</span>
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
      {item.name === 'web_search' && (
        <WebSearchOutcome query={queryOf(item.input)} results={item.webResults} status={item.status} error={item.result} />
      )}
      <div id={bodyId} className="tool-card-body" hidden={!open}>
        {open && (
          <>
            <h4>Input</h4>
            <pre className="tool-card-pre">{formatInput(item.input)}</pre>
            {item.result !== undefined && (
              <>
                <h4>Result{item.errorKind ? ` (${item.errorKind.replace(/_/g, ' ')})` : ''}</h4>
                <ResultText text={item.result} />
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import type { ApprovalDecision, ApprovalRequest } from '../../../../shared/prompts';
import { DryRunView } from './DryRunView';
import './approval.css';

const QUESTION: Record<ApprovalRequest['kind'], string> = {
  edit: 'Approve this file change?',
  command: 'Approve this command?',
  mcp: 'Approve this MCP tool call?',
  other: 'Approve this tool call?',
};

interface Props {
  request: ApprovalRequest;
  onAnswer(decision: ApprovalDecision): Promise<unknown>;
}

/**
 * A risky tool call waiting for the user (design.md §5): an alertdialog named "Approve …",
 * with the tool, the summary and the dry run, and the two answers. Focus moves to it when a
 * request appears, so keyboard and screen-reader users land on the question.
 */
export function ApprovalPrompt({ request, onAnswer }: Props) {
  const ref = useRef<HTMLElement>(null);
  const id = useId();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    ref.current?.focus();
    setBusy(false);
  }, [request.id]);

  const answer = async (decision: ApprovalDecision) => {
    setBusy(true);
    await onAnswer(decision);
    setBusy(false);
  };

  return (
    <section
      ref={ref}
      className={`approval approval--${request.kind}`}
      role="alertdialog"
      aria-labelledby={`${id}-q ${id}-summary`}
      aria-describedby={`${id}-tool`}
      tabIndex={-1}
    >
      <h2 id={`${id}-q`} className="approval-question">
        {QUESTION[request.kind]}
      </h2>
      <p id={`${id}-summary`} className="approval-summary">
        {request.summary}
      </p>
      <p id={`${id}-tool`} className="approval-tool">
        Tool <code>{request.toolName}</code>
        {request.server && (
          <>
            {' '}from MCP server <strong className="approval-server">{request.server}</strong>
          </>
        )}
      </p>
      <DryRunView request={request} />
      <div className="approval-actions">
        <button type="button" className="btn btn--primary" disabled={busy} onClick={() => void answer('approve')}>
          Approve
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => void answer('deny')}>
          Deny
        </button>
      </div>
    </section>
  );
}

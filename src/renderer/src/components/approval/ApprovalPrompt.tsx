import { useId, useState } from 'react';
import { ANY_CALL, ANY_PATH, COMMAND_TOOL, FILE_TOOLS } from '../../../../shared/approval-rules';
import type { ApprovalDecision, ApprovalRequest, ApprovalScope } from '../../../../shared/prompts';
import { PromptDialog } from '../prompt/PromptDialog';
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

/** What "Approve for this chat" and "Always approve" would let run without asking, in words. */
function scopeText(scope: ApprovalScope | null | undefined, protectedChange: boolean): string {
  if (protectedChange) return 'No approval rule, scope or auto-approve setting covers it: it is asked every time and can only be approved once.';
  if (!scope) return 'This call can only be approved once: a command with shell operators (; & | < > ` $() is never remembered.';
  if (!scope.server && scope.tool === COMMAND_TOOL) return `For this chat or always: exactly the command “${scope.pattern}” (not with other arguments).`;
  if (!scope.server && FILE_TOOLS.includes(scope.tool) && scope.pattern === ANY_PATH) return `For this chat or always: ${scope.tool} on any file in the workspace.`;
  if (scope.server && scope.pattern === ANY_CALL) return `For this chat or always: every call of ${scope.tool} on MCP server ${scope.server}.`;
  return `For this chat or always: ${scope.tool}, ${scope.pattern}.`;
}

/**
 * A risky tool call waiting for the user (docs/contract.md §5): an alertdialog named "Approve …", with
 * the tool, the summary and the dry run, and the answers: Approve (this call), Approve for this
 * chat, Always approve (a rule in Settings), Deny. What a scoped answer covers is said under them.
 */
export function ApprovalPrompt({ request, onAnswer }: Props) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const scoped = !!request.scope;

  const answer = async (decision: ApprovalDecision) => {
    setBusy(true);
    await onAnswer(decision);
    setBusy(false);
  };

  return (
    <PromptDialog
      requestId={request.id}
      agent={request.agent}
      className={`prompt-card approval approval--${request.kind}`}
      labelledBy={`${id}-q ${id}-summary`}
      describedBy={request.protected ? `${id}-protected ${id}-tool` : `${id}-tool`}
    >
      <h2 id={`${id}-q`} className="approval-question">
        {QUESTION[request.kind]}
      </h2>
      <p id={`${id}-summary`} className="approval-summary">
        {request.summary}
      </p>
      {request.protected && (
        // Why this one always asks (git's configuration, a hook): said before anything else.
        <p id={`${id}-protected`} className="approval-protected">
          {request.protected}
        </p>
      )}
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
        <button type="button" className="btn" disabled={busy || !scoped} aria-describedby={`${id}-scope`} onClick={() => void answer('approve_chat')}>
          Approve for this chat
        </button>
        <button type="button" className="btn" disabled={busy || !scoped} aria-describedby={`${id}-scope`} onClick={() => void answer('approve_always')}>
          Always approve
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => void answer('deny')}>
          Deny
        </button>
      </div>
      <p id={`${id}-scope`} className="approval-scope">
        {scopeText(request.scope, !!request.protected)}
      </p>
    </PromptDialog>
  );
}

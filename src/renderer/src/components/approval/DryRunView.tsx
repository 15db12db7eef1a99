import type { ApprovalRequest } from '../../../../shared/prompts';

type LineKind = 'add' | 'del' | 'hunk' | 'meta' | 'ctx';

function lineKind(line: string): LineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('====')) return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

/** Screen readers hear what a line does, not just a "+" or "-". */
const SR_PREFIX: Partial<Record<LineKind, string>> = { add: 'Added: ', del: 'Removed: ' };

/**
 * The tool's dry run: for an edit, a unified diff with added and removed lines styled; for a
 * command (or an MCP call), the description as it is (command line and folder).
 */
export function DryRunView({ request }: { request: ApprovalRequest }) {
  const lines = request.dryRun.split('\n');
  if (request.kind !== 'edit') {
    return (
      <pre className="dry-run" aria-label="What would happen">
        {request.dryRun}
      </pre>
    );
  }
  return (
    <pre className="dry-run dry-run--diff" aria-label="Diff">
      {lines.map((line, i) => {
        const kind = lineKind(line);
        return (
          <span key={i} className={`diff-line diff-line--${kind}`} data-diff={kind}>
            {SR_PREFIX[kind] && <span className="sr-only">{SR_PREFIX[kind]}</span>}
            {line}
          </span>
        );
      })}
    </pre>
  );
}

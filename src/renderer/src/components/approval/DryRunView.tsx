import { useRef } from 'react';
import type { ApprovalRequest } from '../../../../shared/prompts';
import { useScrollable } from '../../lib/use-scrollable';
import { DiffLines } from '../diff/DiffLines';

/**
 * The tool's dry run: for an edit, a unified diff with added and removed lines styled; for a
 * command (or an MCP call), the description as it is (command line and folder).
 */
export function DryRunView({ request }: { request: ApprovalRequest }) {
  const ref = useRef<HTMLPreElement>(null);
  const scrollable = useScrollable(ref);
  const lines = request.dryRun.split('\n');
  if (request.kind !== 'edit') {
    return (
      <pre ref={ref} className="dry-run" aria-label="What would happen" tabIndex={scrollable ? 0 : undefined}>
        {request.dryRun}
      </pre>
    );
  }
  return (
    // A long diff scrolls inside the card: then it is focusable, so the keyboard can scroll it.
    <pre ref={ref} className="dry-run dry-run--diff" aria-label="Diff" tabIndex={scrollable ? 0 : undefined}>
      <DiffLines lines={lines} />
    </pre>
  );
}

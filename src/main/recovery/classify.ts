import type { ErrorClass } from '../../shared/plan';
import type { ToolError, ToolGroup } from '../tools/tool';

/**
 * Classifies a failed tool call (docs/contract.md §3). The tool's structured ToolError.kind is the
 * primary signal; per-tool refinements correct it where a tool's kind means something else in
 * recovery terms, and an 'unknown' kind (MCP servers, thrown errors) is refined from its message
 * the way the seed's ClassifyError does.
 */

export interface FailedCall {
  toolName: string;
  group: ToolGroup;
  error: ToolError;
}

/** Ordered: the first pattern that matches wins (timeouts mention "not found" less than the reverse). */
const MESSAGE_PATTERNS: [RegExp, ErrorClass][] = [
  [/timed? ?out|timeout|deadline exceeded/i, 'timeout'],
  [/permission denied|access denied|forbidden|not permitted|EACCES|EPERM|unauthori[sz]ed/i, 'permission'],
  [/not found|does not exist|no such|ENOENT|unknown (file|path|id)|no element/i, 'not_found'],
  [/conflict|already exists|overlap|intersect|locked by/i, 'conflict'],
  [/transaction|roll ?back|commit failed/i, 'transaction_failed'],
  [/unavailable|unreachable|not running|ECONNREFUSED|ECONNRESET|crashed|not (available|loaded)/i, 'unavailable'],
  [/temporar|try again|EBUSY|EAGAIN|rate limit/i, 'transient'],
  [/invalid|parameter|argument|must be|expected|required|malformed/i, 'invalid_parameter'],
];

export function classifyMessage(message: string): ErrorClass {
  for (const [pattern, errorClass] of MESSAGE_PATTERNS) if (pattern.test(message)) return errorClass;
  return 'unknown';
}

/** Per-tool corrections of the kind a tool reported. */
function refineForTool(call: FailedCall): ErrorClass | null {
  const { toolName, error } = call;
  // "old_text occurs 3 times": an ambiguous argument, fixed by quoting more context, not a clash to skip.
  if (toolName === 'edit_file' && error.kind === 'conflict') return 'invalid_parameter';
  // A command that ran out of time says so in its message even when it surfaces as a failure of another kind.
  if (toolName === 'run_command' && error.kind === 'unknown' && /timed out/i.test(error.message)) return 'timeout';
  return null;
}

export function classifyToolFailure(call: FailedCall): ErrorClass {
  const refined = refineForTool(call);
  if (refined) return refined;
  if (call.error.kind !== 'unknown') return call.error.kind;
  return classifyMessage(call.error.message);
}

import type { ParsedInput, ToolDefinition, ToolOutcome } from '../../tools/tool';

/**
 * The failure a call is known to end in before it runs (ToolDefinition.precheck), as the outcome
 * the executor reports without asking for approval. A check that throws proves nothing: the
 * call then goes on as usual (asked, then run).
 */
export async function knownFailure(tool: ToolDefinition, input: ParsedInput): Promise<ToolOutcome | null> {
  if (!tool.precheck || tool.group === 'planning') return null;
  try {
    const error = await tool.precheck(input);
    return error ? { ok: false, error } : null;
  } catch {
    return null;
  }
}

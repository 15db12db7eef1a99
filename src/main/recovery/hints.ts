import type { ErrorClass, RecoveryStrategy } from '../../shared/plan';

/** What a hint depends on: the failing tool, its message and the class of the failure. */
export interface HintInput {
  toolName: string;
  message: string;
  errorClass: ErrorClass;
}

/**
 * The concrete advice that goes back to Claude inside the tool_result, so the next attempt is a
 * modified one rather than a blind repeat (seed P4-06 SuggestParameterFix, adapted to files,
 * commands and MCP tools).
 */

const FILE_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'list_directory', 'search_files']);

function parameterFix(input: Pick<HintInput, 'toolName' | 'message'>): string {
  const { toolName, message } = input;
  const tips: string[] = [];
  if (toolName === 'edit_file') {
    tips.push('read_file the file first and copy old_text exactly from it (whitespace and line endings included)');
    if (/occurs \d+ times/.test(message)) tips.push('include more surrounding lines so old_text matches exactly once');
  }
  // The error names the problem after "Invalid input for <tool>:"; the tool's own name ("read_file") must not read as a path problem.
  const problem = message.replace(/^Invalid input for \S+:/, '');
  if (/start_line|end_line|past the end|has only [\d,]+ lines/.test(problem)) {
    tips.push('pick a line range inside the file: lines count from 1, end_line >= start_line, and read_file without a range shows how many lines there are');
  }
  if (/\bpaths?\b|folder|not a (regular )?file|is a file|outside the workspace/i.test(problem) && FILE_TOOLS.has(toolName)) tips.push('use a path relative to the workspace root, as list_directory shows it');
  if (/timeout_ms|cwd/i.test(message)) tips.push('check timeout_ms and cwd against the tool schema');
  if (/must be|expected|required|invalid input/i.test(message)) tips.push('match the tool input schema: field names, types and required fields');
  return tips.length ? `${tips.join('; ')}.` : 'Review the input against the tool schema and change what the error names before retrying.';
}

function refreshHint(toolName: string): string {
  if (toolName === 'edit_file') return 'The text or file you referred to is not there. read_file the file (or list_directory / search_files to find it) and retry with text copied from what is actually there.';
  if (FILE_TOOLS.has(toolName)) return 'List or read before retrying: use list_directory or search_files to find the right path, then retry with it.';
  return 'What you referred to no longer exists or never did. Query the current state first (list, read or search), then retry with what you find.';
}

function alternativeHint(toolName: string): string {
  if (toolName === 'run_command') return 'The command could not start. Check the program exists (e.g. `which <name>`), or reach the goal another way.';
  if (toolName.includes('__') || toolName.startsWith('mcp')) return 'This MCP server is unavailable. Use another tool (the workspace tools, or another server) for the same result, or tell the user the server needs a restart.';
  return 'This tool or resource is unavailable right now. Use another tool or approach for the same result.';
}

export function hintFor(strategy: RecoveryStrategy, input: HintInput): string {
  switch (strategy) {
    case 'retry_with_modification':
      if (input.errorClass === 'timeout') return 'It ran out of time: reduce the scope (fewer files, a narrower command), or raise timeout_ms for a command that needs longer.';
      if (input.errorClass === 'transient') return 'This looks temporary: retry the same call once; if it fails again, try another approach.';
      return parameterFix(input);
    case 'refresh_context_and_retry':
      return refreshHint(input.toolName);
    case 'retry_with_alternative':
      return alternativeHint(input.toolName);
    case 'rollback_and_retry':
      return "The step's file changes were rolled back to how they were before the step. Simplify the change or split it into smaller steps, then retry.";
    case 'skip_and_continue':
      return 'This step was skipped automatically (non-critical, and this kind of failure is set to auto-skip). Do not retry it; continue with the next step.';
    case 'escalate_to_user':
      return 'Waypoint has asked the user how to proceed.';
  }
}

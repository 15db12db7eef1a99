import type { McpServerState } from '../../../shared/mcp';

export type FailedMcpServer = Extract<McpServerState, { status: 'failed' }>;

/** The last line the server wrote to stderr before it gave up, if any: often the real reason. */
function lastWords(stderrTail: string): string | null {
  const line = stderrTail
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .at(-1);
  if (!line) return null;
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** What went wrong, in words, from main's raw error ("Could not start: spawn npx ENOENT"). */
function why(server: FailedMcpServer): string {
  const raw = server.error.replace(/^Could not start:\s*/, '');
  const spawn = /spawn (.+?) (ENOENT|EACCES|EPERM)\b/.exec(raw);
  if (spawn) {
    return spawn[2] === 'ENOENT'
      ? `could not start: the command "${spawn[1]}" was not found. Install it, or fix "command" in its settings.`
      : `could not start: the command "${spawn[1]}" is not allowed to run (permission denied).`;
  }
  if (/^Invalid configuration/.test(raw)) return `is not set up correctly: ${raw.replace(/^Invalid configuration\s*/, '')}`;
  if (/timed out|timeout/i.test(raw)) return 'did not answer in time while starting.';
  if (/ECONNREFUSED|fetch failed|ENOTFOUND|EAI_AGAIN/.test(raw)) return 'could not be reached: nothing answered at its URL.';
  if (/\b(401|403)\b/.test(raw)) return 'refused the connection: check the headers (the token) in its settings.';
  if (/\b404\b/.test(raw)) return 'was not found at its URL.';
  if (/connection closed|process exited|stopped/i.test(raw)) return 'stopped while starting: its process exited.';
  return `could not start: ${raw}`;
}

/**
 * One sentence for the user about a failed MCP server, e.g. `The MCP server "files" could not
 * start: the command "npx" was not found. …`, with the server's own last words when it left any.
 */
export function mcpFailureInWords(server: FailedMcpServer): string {
  return `The MCP server "${server.name}" ${mcpFailureReason(server)}`;
}

/** The same without the server's name, for where the name is already shown (Settings' list). */
export function mcpFailureReason(server: FailedMcpServer): string {
  const said = lastWords(server.stderrTail);
  return `${why(server)}${said ? ` It said: “${said}”` : ''}`;
}

/** A failure is told once: the same server failing the same way is the same notice. */
export function mcpFailureKey(server: FailedMcpServer): string {
  return `${server.name}\u0000${server.error}`;
}

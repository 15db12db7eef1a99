import { describe, expect, it } from 'vitest';
import { mcpFailureInWords, mcpFailureReason, type FailedMcpServer } from './mcp-failure-words';

const failed = (error: string, stderrTail = '', transport: 'stdio' | 'http' = 'stdio'): FailedMcpServer => ({
  name: 'files',
  transport,
  status: 'failed',
  error,
  stderrTail,
});

describe('mcpFailureInWords', () => {
  it('says a missing command in words, not "spawn … ENOENT"', () => {
    expect(mcpFailureInWords(failed('Could not start: spawn npx-nope ENOENT'))).toBe(
      'The MCP server "files" could not start: the command "npx-nope" was not found. Install it, or fix "command" in its settings.',
    );
    expect(mcpFailureReason(failed('Could not start: spawn ./srv EACCES'))).toBe(
      'could not start: the command "./srv" is not allowed to run (permission denied).',
    );
  });

  it('names the other usual causes, with the last words the server wrote', () => {
    expect(mcpFailureReason(failed('Could not start: MCP error -32000: Connection closed', 'starting\nError: missing configuration, giving up\n'))).toBe(
      'stopped while starting: its process exited. It said: “Error: missing configuration, giving up”',
    );
    expect(mcpFailureReason(failed('Could not start: MCP error -32001: Request timed out'))).toBe('did not answer in time while starting.');
    expect(mcpFailureReason(failed('Could not start: fetch failed', '', 'http'))).toBe('could not be reached: nothing answered at its URL.');
    expect(mcpFailureReason(failed('Could not start: Streamable HTTP error: Error POSTing to endpoint (HTTP 401)', '', 'http'))).toBe(
      'refused the connection: check the headers (the token) in its settings.',
    );
    expect(mcpFailureReason(failed('Invalid configuration (expected {command, args?, env?} or {url, headers?}): args must be a list'))).toBe(
      'is not set up correctly: (expected {command, args?, env?} or {url, headers?}): args must be a list',
    );
    expect(mcpFailureReason(failed('Could not start: something odd'))).toBe('could not start: something odd');
  });

  it('keeps a long last line short', () => {
    expect(mcpFailureReason(failed('Could not start: x', 'E'.repeat(500))).length).toBeLessThan(220);
  });
});

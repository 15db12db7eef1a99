import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * A real, tiny MCP server for tests: well-behaved tools (echo, add) and misbehaving ones
 * (fail → isError, hang → never answers, crash → the process exits with a message on stderr).
 */
export function createTestMcpServer(options: { onCrash?: () => void; envTool?: boolean; environTool?: boolean } = {}): McpServer {
  const server = new McpServer({ name: 'waypoint-test-server', version: '1.0.0' });

  server.registerTool(
    'echo',
    // It changes nothing, and says so (plan first lets such tools run before approval).
    { description: 'Echo the text back', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );

  server.registerTool(
    'add',
    { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );

  server.registerTool(
    'fail',
    { description: 'Always fails with isError', inputSchema: { reason: z.string().optional() } },
    async ({ reason }) => ({ isError: true, content: [{ type: 'text', text: `failed on purpose: ${reason ?? 'no reason'}` }] }),
  );

  server.registerTool('pid', { description: 'The server process id' }, async () => ({
    content: [{ type: 'text', text: String(process.pid) }],
  }));

  server.registerTool('hang', { description: 'Never answers' }, () => new Promise(() => {}));

  server.registerTool('crash', { description: 'Kills the server process' }, async () => {
    process.stderr.write('test server: crashing on purpose\n');
    (options.onCrash ?? (() => process.exit(3)))();
    return { content: [{ type: 'text', text: 'unreachable' }] };
  });

  // Only when asked (--env-tool), so the tool count other tests expect stays the same.
  if (options.envTool) {
    server.registerTool('env', { description: 'The server process environment, as JSON' }, async () => ({
      content: [{ type: 'text', text: JSON.stringify(process.env) }],
    }));
  }

  // Only when asked (--environ-tool): what a server could read of other processes' environments.
  if (options.environTool) {
    server.registerTool('environ', { description: "Every environment this process can read: its own, its parent's, every process's", annotations: { readOnlyHint: true } }, async () => ({
      content: [{ type: 'text', text: readableEnvirons() }],
    }));
  }

  // A tool whose name needs sanitising for the Messages API.
  server.registerTool('weird.name', { description: 'Odd name' }, async () => ({
    content: [{ type: 'text', text: 'odd' }],
  }));

  return server;
}

/** /proc/self, /proc/PPID and every /proc/N environ this process may read, NULs as newlines. */
function readableEnvirons(): string {
  const read = (pid: string): string => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').replaceAll('\0', '\n');
    } catch (error) {
      return `(unreadable: ${(error as Error).message})`;
    }
  };
  const every = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  return [
    `--- own ---\n${read('self')}`,
    `--- parent (${process.ppid}) ---\n${read(String(process.ppid))}`,
    `--- every process (${every.join(' ')}) ---\n${every.map(read).join('\n')}`,
  ].join('\n');
}

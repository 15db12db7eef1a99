import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTestMcpServer } from './server';

// Run with: node --import tsx test-support/mcp-server/stdio.ts   (or: npx tsx test-support/mcp-server/stdio.ts)
// --fail-at-start exits before speaking MCP, to test servers that cannot start.
if (process.argv.includes('--fail-at-start')) {
  process.stderr.write('test server: missing configuration, giving up\n');
  process.exit(2);
}

process.stderr.write('test server: starting on stdio\n');
await createTestMcpServer({ envTool: process.argv.includes('--env-tool'), environTool: process.argv.includes('--environ-tool') }).connect(new StdioServerTransport());
// Like well-behaved servers: leave when the client closes our stdin.
process.stdin.on('end', () => process.exit(0));

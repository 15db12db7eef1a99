import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { JsonSchemaObject, ToolDefinition } from '../tool';
import type { McpConnection } from './mcp-connection';

/** One MCP tool as a Waypoint ToolDefinition (group 'mcp'). */

const Args = z.record(z.string(), z.unknown());
const MAX_DESCRIPTION = 1024;
const MAX_DRY_RUN_ARGS = 2000;

const preview = (input: unknown): string => {
  const json = JSON.stringify(input ?? {}, null, 2) ?? '{}';
  return json.length > MAX_DRY_RUN_ARGS ? `${json.slice(0, MAX_DRY_RUN_ARGS)}…` : json;
};

export function createMcpTool(connection: McpConnection, tool: Tool, apiName: string): ToolDefinition {
  const server = connection.name;
  const description = `${tool.description ?? tool.title ?? tool.name}`.slice(0, MAX_DESCRIPTION);
  return {
    name: apiName,
    description: `${description} (from MCP server "${server}")`,
    inputSchema: { ...(tool.inputSchema as JsonSchemaObject), type: 'object' },
    group: 'mcp',
    server,
    serverTool: tool.name,
    // The server's own word that the tool changes nothing (MCP tool annotations).
    ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    summarize: () => `${server}: ${tool.name}`,
    describeDryRun: (input) => `Would call ${tool.name} on MCP server "${server}" with ${preview(input)}`,
    // An MCP server can do anything its process can: ask unless the user marked it trusted.
    needsApproval: () => !connection.trusted,
    async execute(input, ctx) {
      const parsed = Args.safeParse(input ?? {});
      if (!parsed.success) {
        return { ok: false, error: { kind: 'invalid_parameter', message: `Input for ${apiName} must be a JSON object of arguments.` } };
      }
      return connection.call(tool.name, parsed.data, ctx.signal);
    },
  };
}

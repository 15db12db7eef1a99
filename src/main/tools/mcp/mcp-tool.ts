import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import type { JsonSchemaObject, ToolDefinition } from '../tool';
import type { McpConnection } from './mcp-connection';

/** One MCP tool as a Waypoint ToolDefinition (group 'mcp'). */

/**
 * The server owns the tool's JSON Schema and checks arguments against it; Waypoint only makes
 * sure they are a JSON object of arguments, and offers the server's schema to Claude as written.
 */
const Args = z.record(z.string(), z.unknown(), { error: 'must be a JSON object of arguments' });
const MAX_DESCRIPTION = 1024;
const MAX_DRY_RUN_ARGS = 2000;

const preview = (input: unknown): string => {
  const json = JSON.stringify(input ?? {}, null, 2) ?? '{}';
  return json.length > MAX_DRY_RUN_ARGS ? `${json.slice(0, MAX_DRY_RUN_ARGS)}…` : json;
};

export function createMcpTool(connection: McpConnection, tool: Tool, apiName: string): ToolDefinition {
  const server = connection.name;
  const description = `${tool.description ?? tool.title ?? tool.name}`.slice(0, MAX_DESCRIPTION);
  return defineTool({
    name: apiName,
    description: `${description} (from MCP server "${server}")`,
    input: Args,
    inputSchema: { ...(tool.inputSchema as JsonSchemaObject), type: 'object' },
    group: 'mcp',
    server,
    serverTool: tool.name,
    // The server's own word that the tool changes nothing (MCP tool annotations).
    ...(tool.annotations?.readOnlyHint === true ? { readOnly: true } : {}),
    ...(tool.annotations?.idempotentHint === true ? { idempotent: true } : {}),
    label: `${server}: ${tool.name}`,
    summarize: () => `${server}: ${tool.name}`,
    describeDryRun: (input) => `Would call ${tool.name} on MCP server "${server}" with ${preview(input)}`,
    // An MCP server can do anything its process can: ask unless the user marked it trusted.
    needsApproval: () => !connection.trusted,
    execute: (args, ctx) => connection.call(tool.name, args, ctx.signal),
  });
}

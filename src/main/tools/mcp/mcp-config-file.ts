import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { describeZodError } from '../../../shared/contract';
import { McpServerConfig } from '../../../shared/settings';

/** Claude Desktop's config format: `{"mcpServers": {name: {command, args, env} | {url}}}`. */
export const McpConfigFile = z.object({ mcpServers: z.record(z.string().min(1), McpServerConfig) });
export type McpServers = z.infer<typeof McpConfigFile>['mcpServers'];

/** A bad --mcp-config file: a usage error the user fixes, not a crash. */
export class McpConfigError extends Error {
  override name = 'McpConfigError';
}

/** Reads and validates an --mcp-config file; throws an Error whose message says what to fix. */
export async function loadMcpConfigFile(path: string): Promise<McpServers> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new McpConfigError(`Cannot read MCP config file "${path}": ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`MCP config file "${path}" is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = McpConfigFile.safeParse(json);
  if (!parsed.success) {
    throw new McpConfigError(`MCP config file "${path}" is not in Claude Desktop's {"mcpServers": {...}} format: ${describeZodError(parsed.error)}`);
  }
  return parsed.data.mcpServers;
}

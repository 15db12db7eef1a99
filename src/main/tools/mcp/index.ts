export { McpManager } from './mcp-manager';
export type { McpManagerOptions } from './mcp-state';

export { McpManager } from './mcp-manager';
export type { McpServerState, McpManagerOptions, McpTransportKind } from './mcp-state';
export { mcpToolName, API_TOOL_NAME } from './tool-name';

export { createWorkspaceTools, confine, hasShellControl } from './workspace';
export { McpManager, mcpToolName, API_TOOL_NAME } from './mcp';
export type { McpServerState, McpManagerOptions, McpTransportKind } from './mcp';

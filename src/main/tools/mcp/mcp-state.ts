/** What the UI shows per configured MCP server. */
export type McpTransportKind = 'stdio' | 'http';

/** The contract's type (shared/mcp.ts): one definition for main and the window. */
export type { McpServerState } from '../../../shared/mcp';

export interface McpManagerOptions {
  /** A tools/call that takes longer fails with a `timeout` ToolError. Default 60 s. */
  callTimeoutMs?: number;
  /** Spawn + initialize + tools/list budget. Default 30 s. */
  connectTimeoutMs?: number;
  /** Characters of stderr kept per server for the failed state. Default 4000. */
  stderrTailChars?: number;
}

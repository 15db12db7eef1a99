/** What the UI shows per configured MCP server. */
export type McpTransportKind = 'stdio' | 'http';

/** The contract's type (shared/mcp.ts): one definition for main and the window. */
export type { McpServerState } from '../../../shared/mcp';

import type { McpTokenVault } from './oauth/token-vault';

/** What remote servers' sign-ins need from the app: where tokens live and how a page opens. */
export interface McpSignInOptions {
  vault: McpTokenVault;
  /** The desktop app opens the system browser; without it Settings shows "Open sign-in page". */
  openSignInPage?: (url: string) => void;
  /** How long a sign-in waits for the browser to come back. Default 5 min. */
  timeoutMs?: number;
}

export interface McpManagerOptions {
  /** Remote servers' OAuth sign-ins; without it a server answering 401 just fails. */
  signIns?: McpSignInOptions;
  /** A tools/call that takes longer fails with a `timeout` ToolError. Default 60 s. */
  callTimeoutMs?: number;
  /** Spawn + initialize + tools/list budget. Default 30 s. */
  connectTimeoutMs?: number;
  /** Characters of stderr kept per server for the failed state. Default 4000. */
  stderrTailChars?: number;
}

import { mcpFailureKey, type FailedMcpServer } from './mcp-failure-words';
import type { SliceCreator, WaypointState } from './types';

/**
 * MCP server failures are told once in the app (not only in Settings): a notice per failure not
 * yet dismissed. Dismissed failures are remembered for the tab (sessionStorage), so a reload does
 * not tell the same failure again; a new failure (another error, another server) is told.
 */
export interface McpNoticeSlice {
  mcpNoticesDismissed: readonly string[];
  dismissMcpNotices(servers: readonly FailedMcpServer[]): void;
}

const KEY = 'waypoint.mcpNoticesDismissed';

function readDismissed(): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.sessionStorage?.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export const createMcpNoticeSlice: SliceCreator<McpNoticeSlice> = (set, get) => ({
  mcpNoticesDismissed: readDismissed(),
  dismissMcpNotices(servers) {
    const next = [...new Set([...get().mcpNoticesDismissed, ...servers.map(mcpFailureKey)])];
    set({ mcpNoticesDismissed: next });
    try {
      globalThis.sessionStorage?.setItem(KEY, JSON.stringify(next.slice(-50)));
    } catch {
      // told again after a reload; nothing worse
    }
  },
});

/** The failed servers the user has not been told about yet (or has not dismissed). */
export function untoldMcpFailures(state: Pick<WaypointState, 'mcpServers' | 'mcpNoticesDismissed'>): FailedMcpServer[] {
  const dismissed = new Set(state.mcpNoticesDismissed);
  return state.mcpServers.filter((s): s is FailedMcpServer => s.status === 'failed' && !dismissed.has(mcpFailureKey(s)));
}

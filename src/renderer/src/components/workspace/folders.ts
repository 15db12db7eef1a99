import type { SessionSummary } from '../../../../shared/transcript';

/** The last part of a folder's path, as the header and the sidebar show it. */
export function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/**
 * The folders the user worked in lately, for the web shell's dialog: the chats' workspaces
 * (newest activity first), then the shell's --workspace, each once, the current one left out.
 */
export function recentFolders(sessions: readonly SessionSummary[], startFolder: string | null, current: string | null, limit = 5): string[] {
  const byActivity = [...sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const all = [...byActivity.flatMap((s) => (s.workspace ? [s.workspace] : [])), ...(startFolder ? [startFolder] : [])];
  return [...new Set(all)].filter((folder) => folder !== current).slice(0, limit);
}

import { z } from 'zod';

/**
 * A chat that works in its own git worktree (Settings "Work in a git worktree"): where the
 * worktree is, its branch, and what it was made from. Kept in the chat's summary, so the log
 * keeps it and a restart finds the chat's workspace where it was.
 */
export const ChatWorktree = z.object({
  /** The worktree's folder, under Waypoint's data folder; the chat's workspace is this folder. */
  path: z.string().min(1),
  /** `waypoint/<short chat id>`. */
  branch: z.string().min(1),
  /** The repository's top folder (the main checkout) the worktree was made from. */
  repo: z.string().min(1),
  /** The branch checked out there when the worktree was made; null for a detached HEAD (nothing to merge into). */
  baseBranch: z.string().min(1).nullable(),
  /** The commit the worktree started from: Changes are measured against it. */
  baseCommit: z.string().regex(/^[0-9a-f]{40,64}$/),
});
export type ChatWorktree = z.infer<typeof ChatWorktree>;

/** One file a chat changed, as the "Changes" region lists it. */
export const ChangedFile = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  /** Lines added and removed; null for a binary file. */
  added: z.number().int().nonnegative().nullable(),
  removed: z.number().int().nonnegative().nullable(),
});
export type ChangedFile = z.infer<typeof ChangedFile>;

/** The short chat id in a worktree's branch name: the first 8 characters of the chat's id. */
export function worktreeBranch(chatId: string): string {
  return `waypoint/${chatId.replace(/[^A-Za-z0-9]/g, '').slice(0, 8)}`;
}

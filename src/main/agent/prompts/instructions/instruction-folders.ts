import fs from 'node:fs/promises';
import path from 'node:path';

/** The files read in each folder, in this order (both when both exist). */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

/**
 * The folders whose instruction files apply to a workspace: the repository root (the nearest
 * folder up holding `.git`, a folder or a worktree's file) down to the workspace, outermost
 * first so the more specific file comes later and reads as the last word. Without a repository,
 * the workspace alone: folders above an unrelated project say nothing about it.
 */
export async function instructionFolders(workspace: string): Promise<string[]> {
  const chain: string[] = [];
  let dir = path.resolve(workspace);
  for (;;) {
    chain.push(dir);
    if (await exists(path.join(dir, '.git'))) return chain.reverse();
    const parent = path.dirname(dir);
    if (parent === dir) return [path.resolve(workspace)];
    dir = parent;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

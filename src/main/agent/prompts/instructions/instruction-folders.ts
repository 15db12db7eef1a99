import path from 'node:path';
import type { FileSource } from '../../../common/file-source';

/** The files read in each folder, in this order (both when both exist). */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

/**
 * The folders whose instruction files apply to a workspace: the repository root (the nearest
 * folder up holding `.git`, a folder or a worktree's file) down to the workspace, outermost
 * first so the more specific file comes later and reads as the last word. Without a repository,
 * the workspace alone: folders above an unrelated project say nothing about it.
 */
export async function instructionFolders(workspace: string, files: FileSource): Promise<string[]> {
  const chain: string[] = [];
  let dir = path.resolve(workspace);
  for (;;) {
    chain.push(dir);
    if (await files.exists(path.join(dir, '.git'))) return chain.reverse();
    const parent = path.dirname(dir);
    if (parent === dir) return [path.resolve(workspace)];
    dir = parent;
  }
}

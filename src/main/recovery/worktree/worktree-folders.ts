import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ChatWorktree } from '../../../shared/worktree';
import { worktreeBranch } from '../../../shared/worktree';
import type { GitRunner } from './git';
import { removeWorktree } from './worktree-create';
import { commitWorktree } from './worktree-merge';

/** Every chat's worktree lives in `<dataDir>/worktrees/<chat id>`: Waypoint's to keep tidy. */
export const worktreesDirOf = (dataDir: string): string => path.join(dataDir, 'worktrees');

/**
 * A deleted chat's worktree goes. Its branch goes too, unless it is merged into the branch it was
 * made from (then it names work the user took) or the user keeps it: a kept branch first
 * gets the chat's uncommitted work committed, so removing the folder loses nothing.
 */
export async function forgetChatWorktree(git: GitRunner, worktree: ChatWorktree, options: { keepBranch: boolean; title: string }): Promise<void> {
  const there = await fsp.stat(worktree.path).then(() => true, () => false);
  if (options.keepBranch && there) await commitWorktree(git, worktree, `Waypoint: ${options.title} (kept when the chat was deleted)`);
  let merged = false;
  if (!options.keepBranch && worktree.baseBranch) {
    const clean = !there || (await git.run(worktree.path, ['status', '--porcelain']).then((r) => r.stdout.trim() === '', () => false));
    const tip = await git.run(worktree.repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${worktree.branch}`], { okCodes: [1] });
    const head = tip.stdout.trim();
    // Merged: it has commits of its own (a branch still at its start holds no work) and the base has them all.
    merged = clean && tip.code === 0 && head !== worktree.baseCommit && (await git.run(worktree.repo, ['merge-base', '--is-ancestor', head, `refs/heads/${worktree.baseBranch}`], { okCodes: [1, 128] })).code === 0;
  }
  await removeWorktree(git, worktree.repo, worktree.path, options.keepBranch || merged ? null : worktree.branch);
}

/** The repository a worktree folder belongs to, from its `.git` file ("gitdir: REPO/.git/worktrees/NAME"). */
async function repoOf(folder: string): Promise<string | null> {
  const text = await fsp.readFile(path.join(folder, '.git'), 'utf8').catch(() => null);
  const m = text && /^gitdir: (.+)$/m.exec(text);
  const gitdir = m?.[1];
  if (!gitdir) return null;
  const commonDir = path.dirname(path.dirname(gitdir.trim())); // REPO/.git
  return path.dirname(commonDir);
}

/**
 * Worktrees whose chat is gone (deleted by another process that stopped half-way, or by hand):
 * their folder, git's record of them (`git worktree prune`) and their branch go. Returns how many.
 */
export async function sweepOrphanWorktrees(git: GitRunner, worktreesDir: string, isChat: (chatId: string) => boolean): Promise<number> {
  const entries = await fsp.readdir(worktreesDir, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || isChat(entry.name)) continue;
    const folder = path.join(worktreesDir, entry.name);
    const repo = await repoOf(folder);
    await fsp.rm(folder, { recursive: true, force: true });
    if (repo) {
      await git.run(repo, ['worktree', 'prune']).catch(() => undefined);
      await git.run(repo, ['branch', '-D', worktreeBranch(entry.name)], { okCodes: [1] }).catch(() => undefined);
    }
    removed += 1;
  }
  return removed;
}

/** How many worktrees there are and what they take on disk (Settings). */
export async function worktreeUsage(worktreesDir: string): Promise<{ count: number; bytes: number }> {
  const entries = await fsp.readdir(worktreesDir, { withFileTypes: true }).catch(() => []);
  const folders = entries.filter((e) => e.isDirectory());
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else bytes += (await fsp.lstat(p).catch(() => null))?.size ?? 0;
    }
  };
  for (const f of folders) await walk(path.join(worktreesDir, f.name));
  return { count: folders.length, bytes };
}

import { UserFacingError } from '../../common/errors';
import type { ChatWorktree } from '../../../shared/worktree';
import { gitWords, type GitRunner } from './git';
import { requireFolder } from './worktree-changes';

/** Who commits when the user's git has no name set: the commit still says it is Waypoint's. */
async function identity(git: GitRunner, cwd: string): Promise<string[]> {
  const email = await git.run(cwd, ['config', 'user.email'], { okCodes: [1] });
  return email.stdout.trim() ? [] : ['-c', 'user.name=Waypoint', '-c', 'user.email=waypoint@localhost'];
}

/** Everything the chat left uncommitted in its worktree, committed on its branch (nothing when clean). */
export async function commitWorktree(git: GitRunner, worktree: ChatWorktree, message: string): Promise<void> {
  await requireFolder(worktree);
  await git.run(worktree.path, ['add', '--all', '--', '.']);
  const staged = await git.run(worktree.path, ['diff', '--cached', '--quiet'], { okCodes: [1] });
  if (staged.code === 0) return;
  await git.run(worktree.path, [...(await identity(git, worktree.path)), 'commit', '--quiet', '--no-verify', '-m', message]);
}

/** Where a branch is checked out (its folder), or null. */
async function checkedOutAt(git: GitRunner, repo: string, branch: string): Promise<string | null> {
  const list = (await git.run(repo, ['worktree', 'list', '--porcelain'])).stdout;
  let folder: string | null = null;
  for (const line of list.split('\n')) {
    if (line.startsWith('worktree ')) folder = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${branch}`) return folder;
  }
  return null;
}

const named = (files: readonly string[]): string => {
  const shown = files.slice(0, 10).join(', ');
  return files.length > 10 ? `${shown} and ${files.length - 10} more` : shown;
};

/**
 * "Merge into BRANCH": all or nothing. The chat's work is committed on its branch, the merge is
 * worked out without touching any checkout (`git merge-tree --write-tree`), and only a merge
 * without conflicts moves BRANCH — a fast-forward of its checkout when it is checked out (refused
 * first when that checkout has uncommitted changes), else the ref moved from the tip it was
 * checked against. A conflict is refused naming the files; nothing is half-merged anywhere.
 */
export async function mergeWorktree(git: GitRunner, worktree: ChatWorktree, chatTitle: string): Promise<{ commit: string }> {
  const base = worktree.baseBranch;
  if (!base) throw new UserFacingError('invalid_input', `This chat's worktree was made from a detached HEAD: there is no branch to merge it into. Merge ${worktree.branch} by hand.`);
  await requireFolder(worktree);
  const baseTip = (await git.run(worktree.repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${base}^{commit}`], { okCodes: [1] })).stdout.trim();
  if (!baseTip) throw new UserFacingError('invalid_input', `The branch ${base} is no longer in ${worktree.repo}: there is nothing to merge into.`);
  const checkout = await checkedOutAt(git, worktree.repo, base);
  if (checkout) {
    const dirty = (await git.run(checkout, ['status', '--porcelain', '-z', '--untracked-files=no'])).stdout
      .split('\0')
      .filter(Boolean)
      .map((entry) => entry.slice(3));
    if (dirty.length > 0) {
      throw new UserFacingError('invalid_input', `Not merged: ${checkout} (where ${base} is checked out) has uncommitted changes in ${named(dirty)}. Commit or stash them there, then merge again.`);
    }
  }
  await commitWorktree(git, worktree, `Waypoint: ${chatTitle}`);
  const tip = (await git.run(worktree.path, ['rev-parse', 'HEAD'])).stdout.trim();
  const merged = await git.run(worktree.repo, ['merge-base', '--is-ancestor', tip, baseTip], { okCodes: [1] });
  if (merged.code === 0) throw new UserFacingError('invalid_input', `Nothing to merge: ${base} already has everything on ${worktree.branch}.`);
  const fastForward = (await git.run(worktree.repo, ['merge-base', '--is-ancestor', baseTip, tip], { okCodes: [1] })).code === 0;
  let commit = tip;
  if (!fastForward) {
    const result = await git.run(worktree.repo, ['merge-tree', '--write-tree', '--name-only', '--no-messages', baseTip, tip], { okCodes: [1] });
    const [tree, ...rest] = result.stdout.split('\n');
    if (result.code === 1) {
      const files = [...new Set(rest.filter(Boolean))];
      throw new UserFacingError('invalid_input', `Not merged: ${worktree.branch} and ${base} both changed ${named(files)}. Nothing was merged; resolve it in the chat (or by hand), then merge again.`);
    }
    const ident = await identity(git, worktree.repo);
    commit = (await git.run(worktree.repo, [...ident, 'commit-tree', (tree ?? '').trim(), '-p', baseTip, '-p', tip, '-m', `Merge ${worktree.branch} (Waypoint: ${chatTitle}) into ${base}`])).stdout.trim();
  }
  try {
    if (checkout) await git.run(checkout, ['merge', '--ff-only', '--quiet', commit]);
    else await git.run(worktree.repo, ['update-ref', '-m', `Waypoint: merge ${worktree.branch}`, `refs/heads/${base}`, commit, baseTip]);
  } catch (error) {
    // ff-only and update-ref both change nothing when they refuse (a file in the way, the branch moved meanwhile).
    throw new UserFacingError('invalid_input', `Not merged: git refused to move ${base} (${gitWords(error)}). Nothing was changed.`);
  }
  return { commit };
}

import fsp from 'node:fs/promises';
import path from 'node:path';
import { UserFacingError } from '../../common/errors';
import { worktreeBranch, type ChatWorktree } from '../../../shared/worktree';
import { FolderGone, GitFailed, gitWords, type GitRunner } from './git';

/** What became of a new chat's wish for a worktree. */
export type WorktreeStart =
  /** Made: the chat works in `workspace` (the worktree, or the same subfolder of it), `note` says what the user should know. */
  | { kind: 'made'; worktree: ChatWorktree; workspace: string; note?: string }
  /** No worktree: the chat works in its folder as before, and says why once. */
  | { kind: 'plain'; note: string };

/**
 * A worktree started: on record at once (its folder, branch and commit are settled), while
 * `checkout` still writes its files. `checkout` rejects with a UserFacingError when git failed,
 * after taking the folder and branch away; it never goes unhandled.
 */
export type WorktreeStarted = Exclude<WorktreeStart, { kind: 'made' }> | (Extract<WorktreeStart, { kind: 'made' }> & { checkout: Promise<void> });

const isInside = (outer: string, inner: string): boolean => {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

async function realOrSelf(p: string): Promise<string> {
  try {
    return await fsp.realpath(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * Makes a chat's worktree of the repository holding `workspace`, on branch
 * `waypoint/<short chat id>`, at `<worktreesDir>/<chatId>` (Waypoint's data folder, never inside the
 * user's repository). Either it is made whole, or nothing is left behind: a failed `worktree
 * add` takes its folder and branch with it. Faults the chat can work around (not a repository, no
 * git, no commit yet) come back as `plain`; one that needs the user (a branch name taken, the data
 * folder inside the repository) is a UserFacingError and nothing is made.
 */
export async function makeChatWorktree(git: GitRunner, options: { workspace: string; worktreesDir: string; chatId: string }): Promise<WorktreeStart> {
  const started = await startChatWorktree(git, options);
  if (started.kind !== 'made') return started;
  const { checkout, ...made } = started;
  await checkout.catch((error: unknown) => {
    throw new UserFacingError('internal', `${error instanceof Error ? error.message : String(error)} Send again, or turn off "Work in a git worktree".`);
  });
  return made;
}

/**
 * makeChatWorktree without waiting for the checkout (the files' writing, seconds in a big
 * repository): what is checked first (the repository, its commit, the branch name, the folder)
 * is settled when this resolves; the rest is `checkout`.
 */
export async function startChatWorktree(git: GitRunner, options: { workspace: string; worktreesDir: string; chatId: string }): Promise<WorktreeStarted> {
  const { workspace, chatId } = options;
  let top: string;
  try {
    top = (await git.run(workspace, ['rev-parse', '--show-toplevel'])).stdout.trim();
  } catch (error) {
    if (error instanceof UserFacingError) {
      return { kind: 'plain', note: `git was not found on this computer, so this chat works in ${workspace} itself, not in a git worktree.` };
    }
    if (error instanceof GitFailed || error instanceof FolderGone) {
      return { kind: 'plain', note: `${workspace} is not inside a git repository, so this chat works in the folder itself, not in a git worktree.` };
    }
    throw error;
  }
  if (!top) return { kind: 'plain', note: `${workspace} is inside a git repository's own folder (.git), so this chat works in the folder itself.` };
  const repo = await realOrSelf(top);
  const worktreesDir = await realOrSelf(options.worktreesDir);
  if (isInside(repo, worktreesDir)) {
    throw new UserFacingError(
      'invalid_input',
      `Waypoint's data folder is inside the repository ${repo}, and a worktree is never made inside your repository: move the data folder, or turn off "Work in a git worktree".`,
    );
  }
  let baseCommit: string;
  try {
    baseCommit = (await git.run(repo, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).stdout.trim();
  } catch {
    return { kind: 'plain', note: `The repository ${repo} has no commit yet, so there is nothing to make a worktree from: this chat works in the folder itself.` };
  }
  const head = await git.run(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] });
  const baseBranch = head.code === 0 ? head.stdout.trim() : null;
  const branch = worktreeBranch(chatId);
  const taken = await git.run(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], { okCodes: [1] });
  if (taken.code === 0) {
    throw new UserFacingError(
      'invalid_input',
      `The branch ${branch} already exists in ${repo} (left from an earlier chat?), and this chat's worktree needs that name: delete or rename that branch, or turn off "Work in a git worktree", then send again.`,
    );
  }
  const dest = path.join(worktreesDir, chatId);
  if (await fsp.stat(dest).then(() => true, () => false)) {
    throw new UserFacingError('invalid_input', `A folder is already at ${dest}, where this chat's worktree goes: remove it (Settings, "Clean up worktrees"), then send again.`);
  }
  // Uncommitted changes stay in the main checkout: the worktree starts from the last commit.
  const status = (await git.run(repo, ['status', '--porcelain', '--untracked-files=no'])).stdout;
  const dirty = status.split('\n').filter(Boolean).length;
  await fsp.mkdir(worktreesDir, { recursive: true });
  const checkout = (async () => {
    try {
      await git.run(repo, ['worktree', 'add', '--quiet', '-b', branch, dest, baseCommit]);
    } catch (error) {
      await removeWorktree(git, repo, dest, branch).catch(() => undefined);
      throw new UserFacingError('internal', `git could not make this chat's worktree (${gitWords(error)}); nothing was left behind.`);
    }
  })();
  // Whoever holds it awaits it; a chat deleted meanwhile may not, and that is no crash.
  checkout.catch(() => undefined);
  const worktree: ChatWorktree = { path: dest, branch, repo, baseBranch, baseCommit };
  const sub = path.relative(repo, await realOrSelf(workspace));
  const notes = [`This chat works in its own git worktree on branch ${branch} (${dest}); ${repo} is left as it is.`];
  if (dirty > 0) {
    notes.push(`${repo} has ${dirty} uncommitted ${dirty === 1 ? 'change' : 'changes'}: the worktree starts from the last commit (${baseCommit.slice(0, 7)}) without them.`);
  }
  if (!baseBranch) notes.push(`HEAD in ${repo} is detached at ${baseCommit.slice(0, 7)}: the worktree starts there, and with no branch to merge into, Changes offers no merge.`);
  return { kind: 'made', worktree, workspace: sub ? path.join(dest, sub) : dest, note: notes.join(' '), checkout };
}

/** Takes a worktree's folder and branch away, whatever is left of them (a failed add, a discard, a deleted chat). */
export async function removeWorktree(git: GitRunner, repo: string, dest: string, branch: string | null): Promise<void> {
  await git.run(repo, ['worktree', 'remove', '--force', '--force', dest]).catch(() => undefined);
  await fsp.rm(dest, { recursive: true, force: true });
  await git.run(repo, ['worktree', 'prune']).catch(() => undefined);
  if (branch) await git.run(repo, ['branch', '-D', branch], { okCodes: [1] }).catch(() => undefined);
}

/**
 * A chat's worktree folder that is on no record: made ahead for a new chat by a process that quit
 * before the chat's first message. It goes with its branch, so the chat's worktree can be made afresh.
 */
export async function removeLeftWorktree(git: GitRunner, dest: string, chatId: string): Promise<void> {
  if (!(await fsp.stat(dest).then(() => true, () => false))) return;
  let repo: string | null = null;
  try {
    repo = path.dirname((await git.run(dest, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).stdout.trim());
  } catch {
    // Not a worktree (any more): only the folder is left to go.
  }
  if (repo) await removeWorktree(git, repo, dest, worktreeBranch(chatId));
  else await fsp.rm(dest, { recursive: true, force: true });
}

/**
 * A worktree made ahead for this chat by a process that quit before the chat's first message, when
 * it is still as made (on the chat's branch, nothing changed in it, of the workspace's
 * repository): it is used rather than checked out again (a big repository takes seconds). Null
 * when there is none, or it is not that: the caller removes it and makes one afresh.
 */
export async function adoptLeftWorktree(git: GitRunner, options: { workspace: string; worktreesDir: string; chatId: string }): Promise<WorktreeStart | null> {
  const dest = path.join(await realOrSelf(options.worktreesDir), options.chatId);
  if (!(await fsp.stat(dest).then(() => true, () => false))) return null;
  const branch = worktreeBranch(options.chatId);
  try {
    if ((await git.run(dest, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim() !== branch) return null;
    if ((await git.run(dest, ['status', '--porcelain'])).stdout.trim() !== '') return null;
    const repo = await realOrSelf(path.dirname((await git.run(dest, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).stdout.trim()));
    const top = await realOrSelf((await git.run(options.workspace, ['rev-parse', '--show-toplevel'])).stdout.trim());
    if (top !== repo) return null;
    const baseCommit = (await git.run(dest, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
    const head = await git.run(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okCodes: [1] });
    const baseBranch = head.code === 0 ? head.stdout.trim() : null;
    const sub = path.relative(repo, await realOrSelf(options.workspace));
    const note = `This chat works in its own git worktree on branch ${branch} (${dest}), made from ${baseCommit.slice(0, 7)} when the chat was; ${repo} is left as it is.`;
    return { kind: 'made', worktree: { path: dest, branch, repo, baseBranch, baseCommit }, workspace: sub ? path.join(dest, sub) : dest, note };
  } catch {
    return null;
  }
}

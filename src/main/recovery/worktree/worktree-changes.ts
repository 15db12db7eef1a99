import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UserFacingError } from '../../common/errors';
import type { ChangedFile, ChatWorktree } from '../../../shared/worktree';
import { FolderGone, type GitRunner } from './git';

/**
 * What a worktree chat changed: everything in its worktree against the commit it started from —
 * written by tools, made by commands, committed or not, created or deleted (.gitignore'd files
 * aside). Measured through a throw-away index (a copy of the worktree's, so unchanged files are
 * not hashed again), so the chat's own index and branch are never touched by looking.
 */
async function withScratchIndex<T>(git: GitRunner, worktree: ChatWorktree, use: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  await requireFolder(worktree);
  const own = await indexOf(git, worktree.path);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'waypoint-changes-'));
  const scratch = path.join(dir, 'index');
  try {
    await fsp.copyFile(own, scratch).catch(() => undefined); // a fresh worktree may have none yet
    const env = { GIT_INDEX_FILE: scratch };
    await git.run(worktree.path, ['add', '--all', '--', '.'], { env });
    return await use(env);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** The worktree's own index: `<git dir>/index`, the git dir read from its `.git` file (no git started for it). */
async function indexOf(git: GitRunner, folder: string): Promise<string> {
  const text = await fsp.readFile(path.join(folder, '.git'), 'utf8').catch(() => '');
  const gitdir = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  if (gitdir) return path.join(path.resolve(folder, gitdir), 'index');
  return (await git.run(folder, ['rev-parse', '--path-format=absolute', '--git-path', 'index'])).stdout.trim();
}

/** The worktree folder is still there; deleted by hand, the chat says so rather than a git error. */
export async function requireFolder(worktree: ChatWorktree): Promise<void> {
  if (!(await fsp.stat(worktree.path).then((s) => s.isDirectory(), () => false))) throw worktreeGone(worktree);
}

export function worktreeGone(worktree: ChatWorktree): UserFacingError {
  return new UserFacingError(
    'invalid_input',
    `This chat's worktree folder (${worktree.path}) was deleted outside Waypoint. What was committed on ${worktree.branch} is still in ${worktree.repo}; use "Discard worktree" in Changes to let the chat go on in ${worktree.repo}.`,
  );
}

const STATUS: Record<string, ChangedFile['status']> = { A: 'added', D: 'deleted', M: 'modified', T: 'modified' };

export async function worktreeChanges(git: GitRunner, worktree: ChatWorktree): Promise<ChangedFile[]> {
  return withScratchIndex(git, worktree, async (env) => {
    // One git for both: --raw says what became of each file, --numstat how many lines (-z: paths as they are).
    const out = (await git.run(worktree.path, ['diff', '--cached', '--no-renames', '-z', '--raw', '--numstat', worktree.baseCommit], { env })).stdout;
    const tokens = out.split('\0');
    const statuses = new Map<string, ChangedFile['status']>();
    const lines = new Map<string, { added: number | null; removed: number | null }>();
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] ?? '';
      if (token.startsWith(':')) {
        // ":100644 100644 <sha> <sha> M" then the path.
        statuses.set(tokens[i + 1] ?? '', STATUS[token.charAt(token.length - 1)] ?? 'modified');
        i += 1;
        continue;
      }
      const [, added, removed, file] = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(token) ?? [];
      if (file !== undefined) lines.set(file, { added: added === '-' ? null : Number(added), removed: removed === '-' ? null : Number(removed) });
    }
    const files: ChangedFile[] = [...statuses].map(([filePath, status]) => ({ path: filePath, status, ...(lines.get(filePath) ?? { added: null, removed: null }) }));
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  });
}

/** A path as the Changes list names it: inside the worktree, never `..` or absolute. */
export function checkChangedPath(given: string): string {
  const norm = path.posix.normalize(given.replaceAll('\\', '/'));
  if (!given || path.posix.isAbsolute(norm) || norm === '..' || norm.startsWith('../') || norm === '.' || norm.split('/').includes('.git')) {
    throw new UserFacingError('invalid_input', `"${given}" is not a file of this chat's changes.`);
  }
  return norm;
}

/** The unified diff of one file against the commit the worktree started from. */
export async function worktreeFileDiff(git: GitRunner, worktree: ChatWorktree, given: string): Promise<string> {
  const file = checkChangedPath(given);
  return withScratchIndex(git, worktree, async (env) => (await git.run(worktree.path, ['diff', '--cached', '--no-renames', worktree.baseCommit, '--', file], { env })).stdout);
}

/** Puts one file back as it was at the base commit; a file the chat created goes. */
export async function revertWorktreeFile(git: GitRunner, worktree: ChatWorktree, given: string): Promise<void> {
  const file = checkChangedPath(given);
  await requireFolder(worktree);
  const inBase = await git.run(worktree.path, ['cat-file', '-e', `${worktree.baseCommit}:${file}`], { okCodes: [1, 128] });
  try {
    if (inBase.code === 0) {
      await git.run(worktree.path, ['restore', `--source=${worktree.baseCommit}`, '--staged', '--worktree', '--', file]);
    } else {
      await git.run(worktree.path, ['rm', '--cached', '--quiet', '--ignore-unmatch', '--', file]);
      await fsp.rm(path.join(worktree.path, file), { force: true });
    }
  } catch (error) {
    if (error instanceof FolderGone) throw worktreeGone(worktree);
    throw error;
  }
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isGitSegment } from '../../../shared/git-names';
import { canonical, canonicalRoot, confine, isInside } from './confine';

/**
 * Files whose change can make git run a program: its configuration (`[diff] external`,
 * `core.hooksPath`, `core.fsmonitor`, filters…), its hooks, and anything else of a repository's
 * own folder. A change to one of them always asks the user, whatever the approval rules, scopes
 * and auto-approve settings say (docs/security.md "Protected changes"); this module only says
 * whether a path is one and why, in words for the approval card.
 */

/** Why a change inside a repository's own folder is protected, from its path inside that folder. */
function gitReason(inside: readonly string[], where: string): string {
  const first = inside[0]?.toLowerCase();
  if (first === 'hooks') {
    return `This changes a git hook (${where}): a program git runs by itself, on a commit, checkout or merge.`;
  }
  if (first === 'config' || first === 'commondir' || first === 'gitdir' || (first === 'info' && inside[1]?.toLowerCase() === 'attributes')) {
    return `This changes git's configuration (${where}), which can name programs git runs (a diff tool, a filter, a hooks folder).`;
  }
  if (inside.length === 0) return `This changes which folder git takes as the repository (${where}), and with it git's configuration and hooks.`;
  return `This changes git's own files (${where}), which can name programs git runs.`;
}

/** `~/.gitconfig` (any case, as above): the user's git configuration, which every repository reads. */
const isGitConfigName = (segment: string): boolean => isGitSegment(segment.replace(/config$/i, ''));

/**
 * The reason a workspace-relative path (forward slashes) is protected by its name alone: a
 * `.git` segment anywhere in it, or a file named `.gitconfig`. Null otherwise. Pure.
 */
export function gitPathReason(rel: string): string | null {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  const at = parts.findIndex(isGitSegment);
  if (at >= 0) return gitReason(parts.slice(at + 1), parts.join('/'));
  const last = parts.at(-1);
  if (last !== undefined && /config$/i.test(last) && isGitConfigName(last)) return gitReason(['config'], parts.join('/'));
  return null;
}

/**
 * Git's folder of user configuration (`$XDG_CONFIG_HOME/git`, else `~/.config/git`: its config,
 * attributes and ignore files), read as the user's environment is now; inside the workspace when
 * the workspace is the home folder.
 */
function userGitFolder(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'git');
}

const isFile = (p: string): boolean => {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
};
const isDir = (p: string): boolean => {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * A folder git would take as a repository's own folder, by the test git itself makes: a HEAD
 * file and either objects/ and refs/, or a commondir file (a linked worktree's folder). This
 * finds the ones not named `.git`: a bare repository, `git init --separate-git-dir`, the target
 * of a `.git` file (worktrees, submodules) that lies in the workspace.
 */
export function looksLikeGitDir(folder: string): boolean {
  if (!isFile(path.join(folder, 'HEAD'))) return false;
  return isFile(path.join(folder, 'commondir')) || (isDir(path.join(folder, 'objects')) && isDir(path.join(folder, 'refs')));
}

/** Where that folder really is, or would be: it may not exist yet, and a write would make it. */
function realUserGitFolder(): string | null {
  try {
    return canonical(userGitFolder());
  } catch {
    return null; // a symlink loop on the way: no file can be written there either
  }
}

/**
 * Why changing `given` (a path in the workspace, as a tool got it) always asks, or null. Checked
 * on the path as given and on where it really leads (a symlink `cfg -> .git` counts), and on the
 * folders above it up to the workspace root (a repository folder not named `.git`).
 */
export function protectedChangeReason(root: string, given: string): string | null {
  const byName = gitPathReason(given.trim());
  if (byName) return byName;
  const target = confine(root, given);
  const rootResult = canonicalRoot(root);
  if (!target.ok || !rootResult.ok) return null; // the call fails anyway, before anything is asked
  const realRel = path.relative(rootResult.root, target.path.abs).split(path.sep).join('/');
  const byRealName = gitPathReason(realRel);
  if (byRealName) return byRealName;
  const userGit = realUserGitFolder();
  if (userGit && isInside(userGit, target.path.abs)) {
    return `This changes git's configuration for every repository (${target.path.rel}), which can name programs git runs (a diff tool, a filter, a hooks folder).`;
  }
  let folder = path.dirname(target.path.abs);
  while (isInside(rootResult.root, folder)) {
    if (looksLikeGitDir(folder)) {
      const inside = path.relative(folder, target.path.abs).split(path.sep);
      return gitReason(inside, target.path.rel);
    }
    if (folder === rootResult.root) break;
    folder = path.dirname(folder);
  }
  return null;
}

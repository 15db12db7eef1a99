import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Whether the `git worktree add` that made this folder never finished. git locks a new worktree
 * with the reason "initializing" while it writes its files and removes the lock once they are all
 * there, so a process killed in the middle of a checkout (its git with it) leaves a folder that
 * holds only some of the commit's files, still locked. Read synchronously: it runs at start, before
 * anything of a chat can use the folder. A folder that is not there is not this case (the chat's
 * message is refused as a folder deleted by hand); one without its `.git` file was cut off before
 * git even wrote that.
 */
export function checkoutUnfinished(folder: string): boolean {
  if (!existsSync(folder)) return false;
  let link: string;
  try {
    link = readFileSync(path.join(folder, '.git'), 'utf8');
  } catch {
    return true;
  }
  const gitdir = /^gitdir: (.+)$/m.exec(link)?.[1]?.trim();
  if (!gitdir) return true;
  try {
    return readFileSync(path.join(path.resolve(folder, gitdir), 'locked'), 'utf8').trim() === 'initializing';
  } catch {
    return false; // no lock: git finished (or the user unlocked it by hand)
  }
}

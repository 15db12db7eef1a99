import { copyFile, lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The web shell kept its data in a folder of its own before it shared the desktop app's
 * (data-folders.ts, formerWebDataDir). Started on the shared default, it copies that folder's chats
 * over once, so nothing a user made in the browser goes missing from view. Copy, never move: the
 * old folder stays as it was (a `--data-dir` pointing at it keeps working), and nothing already in
 * the shared folder is overwritten (chat ids are random, so a copied chat never meets another).
 */

/** Written in the shared folder once the copy is done (or found nothing), so it happens once. */
export const FORMER_WEB_MARKER = 'copied-from-web-shell-folder.json';

/**
 * What is never copied: another process's claim on a chat (`*.lock`), requests waiting for a
 * writer (`inbox`, `replies`), temp files, and the chat list, which the shared folder rebuilds
 * from the logs themselves.
 */
function skipped(name: string): boolean {
  return name.endsWith('.lock') || name === 'inbox' || name === 'replies' || name === 'index.json' || name.startsWith('.') || name.includes('.set-aside-');
}

export interface FormerWebCopy {
  /** Chat logs copied (`sessions/<id>/events.jsonl`). */
  chats: number;
  /** Files copied in all (checkpoints, attachments and settings included). */
  files: number;
}

/** Copies what `from` holds and `to` lacks; regular files and folders only (a link is not followed). */
async function copyMissing(from: string, to: string, counts: FormerWebCopy, rel: string[]): Promise<void> {
  let names: string[];
  try {
    names = await readdir(from);
  } catch {
    return;
  }
  await mkdir(to, { recursive: true });
  for (const name of names) {
    if (skipped(name)) continue;
    const source = join(from, name);
    const target = join(to, name);
    const stat = await lstat(source).catch(() => null);
    if (!stat) continue;
    if (stat.isDirectory()) {
      await copyMissing(source, target, counts, [...rel, name]);
    } else if (stat.isFile()) {
      const exists = await lstat(target).then(() => true, () => false);
      if (exists) continue;
      // COPYFILE_EXCL: a file that appeared in the meantime is kept, not replaced.
      const copied = await copyFile(source, target, 1).then(() => true, () => false);
      if (!copied) continue;
      counts.files += 1;
      if (rel.length === 2 && rel[0] === 'sessions' && name === 'events.jsonl') counts.chats += 1;
    }
  }
}

/**
 * Copies the former web-shell folder into `to` once. Returns what was copied, or null when
 * there was nothing to do (already done, or no former folder).
 */
export async function copyFormerWebData(from: string, to: string): Promise<FormerWebCopy | null> {
  if (from === to) return null;
  const marker = join(to, FORMER_WEB_MARKER);
  if (await lstat(marker).then(() => true, () => false)) return null;
  const former = await lstat(from).catch(() => null);
  if (!former?.isDirectory()) return null;
  const counts: FormerWebCopy = { chats: 0, files: 0 };
  await copyMissing(from, to, counts, []);
  await writeFile(marker, `${JSON.stringify({ from, at: new Date().toISOString(), ...counts })}\n`);
  return counts;
}

/** The stderr line the web shell prints after a copy that brought chats over. */
export function formerWebNote(from: string, to: string, copy: FormerWebCopy): string | null {
  if (copy.chats === 0) return null;
  const chats = copy.chats === 1 ? '1 chat' : `${copy.chats} chats`;
  return `waypoint: copied ${chats} from the web shell's former data folder (${from}) into the shared one (${to}); the former folder is left as it was.`;
}

import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { CallOutput } from '../../shared/contract';
import type { Chats } from '../chats/chats';
import { UserFacingError } from '../common/errors';
import { noticeItem } from '../common/transcript-items';
import type { OffLimitsPlace } from '../tools/workspace';

/** The shell's folder picker: Electron shows a dialog; null = the user cancelled. */
export type PickFolder = () => Promise<string | null>;

export const WEB_WORKSPACE_MESSAGE =
  "The web shell has no folder picker: type the folder's full path in \"Workspace folder\" (or restart it with --workspace DIR).";

/** Case-insensitive file systems (macOS and Windows by default), as tools/workspace/off-limits.ts treats them. */
const FOLDS_CASE = process.platform === 'darwin' || process.platform === 'win32';
const key = (p: string): string => (FOLDS_CASE ? p.toLowerCase() : p);
const within = (outer: string, inner: string): boolean => {
  const rel = path.relative(key(outer), key(inner));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * A folder the user named for a chat's workspace, checked before anything uses it: it exists, it
 * is a folder, and it is not inside one of Waypoint's own places (its data folder holds settings,
 * chats and the key; see docs/security.md). A workspace that merely contains such a place (home)
 * is allowed: the tools leave the place alone there (off-limits.ts). Returns the real path, so
 * chats in the same folder share one tool registry however it was typed.
 */
export function checkWorkspaceFolder(given: string, places: readonly OffLimitsPlace[], home = homedir()): string {
  const typed = given.trim();
  if (!typed) throw new UserFacingError('invalid_input', "The folder path is empty: type the folder's full path.");
  const expanded = typed === '~' ? home : typed.startsWith('~/') ? path.join(home, typed.slice(2)) : typed;
  if (!path.isAbsolute(expanded)) {
    throw new UserFacingError('invalid_input', `"${typed}" is not a full path: type it from the top (e.g. ${path.join(home, 'project')}).`);
  }
  let real: string;
  try {
    real = realpathSync(expanded);
  } catch {
    throw new UserFacingError('invalid_input', `There is no folder at "${typed}": check the path.`);
  }
  if (!statSync(real).isDirectory()) {
    throw new UserFacingError('invalid_input', `"${typed}" is a file, not a folder: choose the folder that holds it.`);
  }
  for (const place of places) {
    let placeReal: string;
    try {
      placeReal = realpathSync(path.resolve(place.path));
    } catch {
      placeReal = path.resolve(place.path); // not made yet: it can still not be chosen
    }
    if (within(placeReal, real)) {
      throw new UserFacingError(
        'invalid_input',
        `"${typed}" is inside ${place.what} (${placeReal}), which holds Waypoint's settings, chats and key: choose a folder of your own.`,
      );
    }
  }
  return real;
}

/**
 * chooseWorkspace: the folder the user typed (web shell) or picked (Electron's dialog), checked,
 * then remembered for this chat. A chat that already has messages says in its transcript that
 * it moved, so the change is not silent (it is refused while Claude works: ChatService.setWorkspace).
 */
export async function chooseWorkspace(
  chats: Pick<Chats, 'getSession' | 'setWorkspace' | 'addNotice'>,
  pickFolder: PickFolder | undefined,
  places: readonly OffLimitsPlace[],
  sessionId: string,
  typed?: string,
): Promise<CallOutput<'chooseWorkspace'>> {
  const snapshot = chats.getSession(sessionId);
  const current = snapshot.session.workspace ?? null;
  // The worktree is the chat's workspace: moving it elsewhere would leave Changes and Merge about a folder no tool works in.
  const worktree = snapshot.session.worktree;
  if (worktree) {
    throw new UserFacingError('invalid_input', `This chat works in its own git worktree (branch ${worktree.branch}): merge or discard it in Changes before choosing another folder.`);
  }
  let folder: string | null;
  if (typed !== undefined) folder = typed;
  else if (pickFolder) folder = await pickFolder();
  else throw new UserFacingError('invalid_input', WEB_WORKSPACE_MESSAGE);
  if (!folder) return { workspace: current };
  const real = checkWorkspaceFolder(folder, places);
  if (real === current) return { workspace: current };
  const workspace = chats.setWorkspace(sessionId, real).workspace ?? null;
  if (snapshot.transcript.length > 0 || (snapshot.olderItems ?? 0) > 0) {
    const from = current ? ` (it was ${current})` : '';
    chats.addNotice(sessionId, noticeItem('info', `Workspace changed to ${real}${from}: Claude's file and command tools work there from the next message.`, 'workspace'));
  }
  return { workspace };
}

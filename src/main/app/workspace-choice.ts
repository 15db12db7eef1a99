import type { CallOutput } from '../../shared/contract';
import type { Chats } from '../chats/chats';
import { UserFacingError } from '../common/errors';

/** The shell's folder picker: Electron shows a dialog; null = the user cancelled. */
export type PickFolder = () => Promise<string | null>;

export const WEB_WORKSPACE_MESSAGE =
  'The web shell works in the folder it was started with. To use another folder, restart it with --workspace DIR (or WAYPOINT_WORKSPACE).';

/** chooseWorkspace: ask the shell for a folder and remember it for this chat. */
export async function chooseWorkspace(
  chats: Pick<Chats, 'getSession' | 'setWorkspace'>,
  pickFolder: PickFolder | undefined,
  sessionId: string,
): Promise<CallOutput<'chooseWorkspace'>> {
  const current = chats.getSession(sessionId).session.workspace ?? null;
  if (!pickFolder) throw new UserFacingError('invalid_input', WEB_WORKSPACE_MESSAGE);
  const folder = await pickFolder();
  if (!folder) return { workspace: current };
  return { workspace: chats.setWorkspace(sessionId, folder).workspace ?? null };
}

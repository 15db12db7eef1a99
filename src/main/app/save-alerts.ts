import type { WaypointEvent } from '../../shared/contract';
import type { Disposable } from '../common/emitter';
import type { SaveState } from '../store/chat-logs';

/** What the alerts need of the chats: a title, a Stop, and a Resume. */
export interface SaveAlertChats {
  listSessions(): Array<{ id: string; title: string }>;
  stop(sessionId: string): { stopped: boolean };
  retryRun(sessionId: string): { started: boolean };
}

/** The cause of a failed write in words (the code stays in brackets for a search). */
export function describeWriteError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full (ENOSPC)';
    case 'EMFILE':
    case 'ENFILE':
      return `too many files are open (${error.code})`;
    case 'EACCES':
    case 'EPERM':
      return `permission was denied (${error.code})`;
    case 'EROFS':
      return 'the disk is read-only (EROFS)';
    case 'ENOTDIR':
    case 'EEXIST':
      return `its folder is a file, not a folder (${error.code})`;
    case 'EIO':
      return 'the disk reported an error (EIO)';
    default:
      return error.message;
  }
}

/**
 * Tells the user when a chat cannot be saved, and pauses Claude's work in it: a run that goes on
 * while nothing is written would lose everything it did on the next crash. Records wait in
 * memory and are retried; when the disk takes them again the user is told, and a run this
 * paused carries on by itself.
 */
export function watchSaves(onSaveState: (listener: (state: SaveState) => void) => Disposable, chats: SaveAlertChats, fire: (event: WaypointEvent) => void): Disposable {
  const paused = new Set<string>();
  const title = (sessionId: string) => chats.listSessions().find((s) => s.id === sessionId)?.title ?? 'a chat';
  return onSaveState((state) => {
    const { sessionId } = state;
    if (state.status === 'failing') {
      let stopped = false;
      try {
        stopped = chats.stop(sessionId).stopped;
      } catch {
        // The chat is gone.
      }
      if (stopped) paused.add(sessionId);
      fire({
        type: 'error',
        sessionId,
        code: 'save_failed',
        message:
          `Waypoint could not save the chat "${title(sessionId)}": ${describeWriteError(state.error)}. ` +
          `${stopped ? "Claude's work in it is paused. " : ''}Nothing already saved is lost; what is not saved yet is kept and written as soon as the disk takes it.`,
      });
      return;
    }
    const wasPaused = paused.delete(sessionId);
    let resumed = false;
    if (wasPaused) {
      try {
        resumed = chats.retryRun(sessionId).started;
      } catch {
        // Busy, or no key any more: the user carries on by hand.
      }
    }
    fire({
      type: 'error',
      sessionId,
      code: 'save_recovered',
      message: `Waypoint can save "${title(sessionId)}" again: everything is saved.${resumed ? ' Claude carries on.' : wasPaused ? ' Send a message to carry on.' : ''}`,
    });
  });
}

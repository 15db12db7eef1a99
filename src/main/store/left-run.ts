import { readLog } from './log-reader';
import { replay } from './replay';
import { restoreChat, type RestoredChat } from './restore-chat';

/**
 * A run another process left open in a chat's log (it died mid-run), closed as a restart closes
 * it: the log read and replayed, the chat restored with the repair (results for open tool calls,
 * items marked cut off). Null when there is nothing to close (a run paused on a question waits
 * for its answer) or the log cannot be replayed.
 */
export function closedLeftRun(path: string, keepRecent?: number): RestoredChat | null {
  const read = readLog(path);
  const replayed = replay(read.records, { spans: read.spans, path, ...(keepRecent !== undefined ? { keepRecent } : {}) });
  if (!replayed) return null;
  const restored = restoreChat(replayed, { repair: true });
  return restored.fixedItems.length || restored.fixedAgents.length ? restored : null;
}

import { existsSync, statSync, truncateSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plan } from '../../shared/plan';
import { HistorySync } from './history-sync';
import { readLog } from './log-reader';
import { replay } from './replay';
import { restoreChat, type RestoredChat } from './restore-chat';
import { indexMatches, readIndex } from './session-index';

export interface LoadedChat {
  id: string;
  restored: RestoredChat;
  plan: Plan | null;
  /** The history as logged, before any fix-up: what the log already holds. */
  history: HistorySync;
  nextSeq: number;
  runStatus: string;
  summaryJson: string;
}

export interface LoadResult {
  chats: LoadedChat[];
  /** The index was missing, damaged or out of date: write it again from the logs. */
  rebuildIndex: boolean;
}

/**
 * Reads every chat folder under `sessions/`. A damaged log loses only its bad lines; a torn tail
 * is cut off so the next append starts on a clean line. A folder without a usable log is
 * reported and left alone (never deleted: the user may want it).
 */
export async function loadSessions(sessionsDir: string, logFile: string, warn: (message: string) => void): Promise<LoadResult> {
  await mkdir(sessionsDir, { recursive: true });
  const dirs = (await readdir(sessionsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  const chats: LoadedChat[] = [];
  for (const id of dirs) {
    const path = join(sessionsDir, id, logFile);
    if (!existsSync(path)) continue;
    try {
      const read = readLog(path);
      for (const warning of read.warnings) warn(warning);
      if (read.intactBytes < statSync(path).size) truncateSync(path, read.intactBytes);
      const replayed = replay(read.records);
      if (!replayed || replayed.summary.id !== id) {
        warn(`${path}: no chat could be rebuilt from this log (it has no valid "created" record); skipped.`);
        continue;
      }
      const history = new HistorySync(replayed.history);
      chats.push({
        id,
        restored: restoreChat(replayed),
        plan: replayed.plan,
        history,
        nextSeq: read.nextSeq,
        runStatus: replayed.runState.status,
        summaryJson: JSON.stringify(replayed.summary),
      });
    } catch (error) {
      warn(`${path}: could not be read (${(error as Error).message}); skipped.`);
    }
  }
  // Oldest activity first, so the chat service's "newest first" list is stable.
  chats.sort((a, b) => a.restored.session.summary.updatedAt.localeCompare(b.restored.session.summary.updatedAt));

  const index = await readIndex(sessionsDir);
  if (index.kind === 'damaged') warn(`The chat index was damaged (${index.reason}); rebuilt it from the logs.`);
  if (index.kind === 'ok' && !indexMatches(index.sessions, chats.map((c) => c.id))) {
    warn('The chat index did not match the chat folders; rebuilt it from the logs.');
  }
  // The logs are the truth: the index is rewritten from them whenever there is anything to list.
  const rebuildIndex = chats.length > 0 || index.kind !== 'missing';
  return { chats, rebuildIndex };
}

import { existsSync, lstatSync, statSync, truncateSync } from 'node:fs';
import { describeNonFile } from '../common/regular-file';
import { mkdir, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Plan } from '../../shared/plan';
import { apiHistoryProblem } from '../chats/api-history';
import { readLog, type LogReadResult } from './log-reader';
import type { LogRecord } from './log-records';
import { replay, type ReplayedChat } from './replay';
import { historyReader } from './logged-history';
import { hasPendingPrompt, restoreChat, type RestoredChat } from './restore-chat';
import { readChatIndex } from './chat-index-file';
import { byActivity, listableFromIndex, listedEntries, stampOf, type ListedChat } from './chat-index';

export interface LoadedChat {
  id: string;
  restored: RestoredChat;
  plan: Plan | null;
  nextSeq: number;
  /** Where the log's last complete line ends: a follower reads on from here. */
  intactBytes: number;
  /** Another live process writes this chat: taken as logged, neither repaired nor cut. */
  writtenElsewhere: boolean;
  runStatus: string;
  summaryJson: string;
  /** The log could not be rebuilt whole: the chat is shown read-only and its log is never written. */
  damaged: boolean;
}

export interface LoadResult {
  chats: LoadedChat[];
  /** Chats listed from the chat index, their logs not read (store/chat-index.ts); oldest activity first. */
  listed: ListedChat[];
  /** The index was missing, damaged or out of date: write it again from the logs. */
  rebuildIndex: boolean;
}

const TORN = /torn last line/;

/**
 * Reads every chat folder under `sessions/`. A damaged log loses only its bad lines; a torn tail
 * is cut off so the next append starts on a clean line. A folder without a usable log is
 * reported and left alone (never deleted: the user may want it). A chat another live process
 * writes (`writtenElsewhere`) is read as it stands: its last line may still be on its way.
 */
export async function loadChats(
  sessionsDir: string,
  logFile: string,
  warn: (message: string) => void,
  writtenElsewhere: (sessionId: string) => boolean = () => false,
  keepRecent?: number,
): Promise<LoadResult> {
  await mkdir(sessionsDir, { recursive: true });
  const dirs = (await readdir(sessionsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  const index = await readChatIndex(sessionsDir);
  if (index.kind === 'damaged') warn(`The chat index was damaged (${index.reason}); rebuilt it from the logs.`);
  const known = index.kind === 'ok' ? listedEntries(index.index) : new Map<string, ListedChat>();
  const chats: LoadedChat[] = [];
  const listed: ListedChat[] = [];
  for (const id of dirs) {
    const path = join(sessionsDir, id, logFile);
    // A chat the index vouches for is listed as it says; its log is read when the chat is used.
    const entry = known.get(id);
    if (listableFromIndex(entry?.entry, stampOf(path)) && !writtenElsewhere(id)) {
      listed.push(entry!);
      continue;
    }
    const loaded = loadChat(path, id, warn, writtenElsewhere(id), keepRecent);
    if (loaded) chats.push(loaded);
  }
  // Oldest activity first, so the chat service's "newest first" list is stable.
  chats.sort((a, b) => byActivity(a.restored.session.summary, b.restored.session.summary));
  listed.sort((a, b) => byActivity(a.summary, b.summary));

  if (index.kind === 'ok' && !sameIds(index.index.sessions.map((s) => s.id), [...chats.map((c) => c.id), ...listed.map((c) => c.summary.id)])) {
    warn('The chat index did not match the chat folders; rebuilt it from the logs.');
  }
  // The logs are the truth: the index is rewritten from them whenever there is anything to list.
  const rebuildIndex = chats.length > 0 || listed.length > 0 || index.kind !== 'missing';
  return { chats, listed, rebuildIndex };
}

function sameIds(listed: readonly string[], found: readonly string[]): boolean {
  const ids = new Set(listed);
  return ids.size === found.length && found.every((id) => ids.has(id));
}

function emptyRead(): LogReadResult {
  return { records: [], spans: [], warnings: [], nextSeq: 0, intactBytes: 0, skipped: 0 };
}

/** The summary with this start's view of its log: skipped lines and damage, nothing stale from before. */
function withLogHealth(summary: ReplayedChat['summary'], skipped: number, damaged: string | undefined): ReplayedChat['summary'] {
  const { skippedLines: _oldSkipped, damaged: _oldDamaged, ...rest } = summary;
  return { ...rest, ...(skipped > 0 ? { skippedLines: skipped } : {}), ...(damaged ? { damaged } : {}) };
}

/**
 * A chat whose log cannot be rebuilt whole (no readable "created" record, empty, not a file): it
 * stays in the list with what could be read, marked damaged, and is never run or written, so
 * nothing more of it is lost. The user can read it, export it or delete it.
 */
function damagedChat(id: string, reason: string, read: LogReadResult, path: string, keepRecent?: number): LoadedChat {
  const skipped = read.skipped;
  const first = read.records[0];
  const when = first?.t ?? fileTime(path);
  const created: LogRecord = {
    seq: -1,
    t: when,
    type: 'created',
    session: { id, title: `Damaged chat ${id.slice(0, 8)}`, createdAt: when, updatedAt: when },
  };
  const kept = read.records.flatMap((record, index) => (record.type === 'created' ? [] : [{ record, span: read.spans[index] }]));
  // Its items are read back from the log like any chat's: the file is never changed.
  const replayed = replay([created, ...kept.map((k) => k.record)], { spans: [undefined, ...kept.map((k) => k.span)], path, keepRecent }) as ReplayedChat;
  replayed.summary = withLogHealth({ ...replayed.summary, id }, skipped, reason);
  // Nothing is repaired: a damaged chat is shown as it was read.
  replayed.runState = { status: 'idle' };
  const restored = restoreChat(replayed);
  restored.session.pendingApproval = null;
  restored.session.pendingEscalation = null;
  restored.session.pendingQuestion = null;
  restored.session.runState = { status: 'idle' };
  return {
    id,
    restored,
    plan: replayed.plan,
    nextSeq: read.nextSeq,
    intactBytes: read.intactBytes,
    writtenElsewhere: false,
    runStatus: 'idle',
    summaryJson: JSON.stringify(replayed.summary),
    damaged: true,
  };
}

function fileTime(path: string): string {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

/**
 * One chat from its log; null when the folder has no log. Also used for a chat another process
 * created while this one runs (`elsewhere`: that process is still writing it).
 */
export function loadChat(path: string, id: string, warn: (message: string) => void, elsewhere: boolean, keepRecent?: number): LoadedChat | null {
  if (!existsSync(path)) return null;
  try {
    if (lstatSync(path).isDirectory()) {
      warn(`${path} is a folder, not a log; the chat is listed as damaged.`);
      return damagedChat(id, `its log (${basename(path)}) is a folder, not a file`, emptyRead(), path);
    }
    const kind = statSync(path);
    if (!kind.isFile()) {
      // A FIFO or a device: reading it would wait forever. (readLog checks the opened file again.)
      warn(`${path} is ${describeNonFile(kind)}, not a log; the chat is listed as damaged.`);
      return damagedChat(id, `its log is ${describeNonFile(kind)}, not a file`, emptyRead(), path);
    }
    const read = readLog(path);
    for (const warning of read.warnings) if (!elsewhere || !TORN.test(warning)) warn(warning);
    if (statSync(path).size === 0) return damagedChat(id, 'its log is empty (0 bytes)', read, path, keepRecent);
    const replayed = replay(read.records, { spans: read.spans, path, keepRecent });
    if (!replayed || replayed.summary.id !== id) {
      // The first record is unreadable: keep what the rest says, read-only (the file is left as it is).
      warn(`${path}: no valid "created" record; the chat is listed as damaged with what could be read.`);
      return damagedChat(id, 'its first record could not be read', read, path, keepRecent);
    }
    // A history the API would refuse (a log edited by hand) is never sent: the chat opens read-only.
    const refused = apiHistoryProblem(replayed.history);
    if (refused) {
      warn(`${path}: its API history is not one Claude accepts (${refused}); the chat is listed as damaged.`);
      return damagedChat(id, `its API history is not one Claude accepts (${refused})`, read, path, keepRecent);
    }
    if (!elsewhere && read.intactBytes < statSync(path).size) truncateSync(path, read.intactBytes);
    for (const problem of replayed.problems) warn(`${path}: ${problem}.`);
    replayed.summary = withLogHealth(replayed.summary, read.skipped + replayed.problems.length, undefined);
    const restored = restoreChat(replayed, { repair: !elsewhere });
    // Nothing to close or to answer: the history stays in the log until a run, an edit or a compaction reads it.
    const deferred = !restored.fixedItems.length && !restored.historyRepairs.length && !restored.fixedAgents.length && !hasPendingPrompt(restored.session);
    if (deferred) restored.session.deferHistory(historyReader(path, replayed.historySpans, () => replay(readLog(path).records)?.history ?? [], replayed.history.length));
    return {
      id,
      restored,
      plan: replayed.plan,
      nextSeq: read.nextSeq,
      intactBytes: read.intactBytes,
      writtenElsewhere: elsewhere,
      runStatus: replayed.runState.status,
      summaryJson: JSON.stringify(replayed.summary),
      damaged: false,
    };
  } catch (error) {
    warn(`${path}: could not be read (${(error as Error).message}); the chat is listed as damaged.`);
    return damagedChat(id, `its log could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, emptyRead(), path);
  }
}

import { statSync } from 'node:fs';
import type { SessionSummary } from '../../shared/transcript';
import type { ChatIndex, LogEntry } from './chat-index-file';

/** A log's size and modification time: what tells an index entry it is still the log's. */
interface LogStamp {
  size: number;
  mtimeMs: number;
}

/** The log's stamp now, or null when there is no regular file to stamp. */
export function stampOf(path: string): LogStamp | null {
  try {
    const stat = statSync(path);
    return stat.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : null;
  } catch {
    return null;
  }
}

/**
 * Oldest activity first, and by id among equal times: the order a start puts chats in, the same
 * whether they were read from their logs or listed from the index (chats created in one
 * millisecond would otherwise list in a different order after a start without the index).
 */
export function byActivity(a: SessionSummary, b: SessionSummary): number {
  // The reverse of newestFirst (chats/chat-session.ts): updated, then created, then id.
  for (const k of ['updatedAt', 'createdAt', 'id'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

/** A chat listed from the index alone: its log is read when the chat is first used. */
export interface ListedChat {
  summary: SessionSummary;
  entry: LogEntry;
}

/**
 * Whether a chat can be listed from its index entry without reading its log: the entry is the
 * log's (same size and time), and the chat needs nothing at start — no run to close, no question
 * to ask again, not empty (New chat reuses an empty chat, so it must be at hand). Everything else
 * is read at start as before.
 */
export function listableFromIndex(entry: LogEntry | undefined, stamp: LogStamp | null): entry is LogEntry {
  if (!entry || !stamp) return false;
  if (entry.size !== stamp.size || entry.mtimeMs !== stamp.mtimeMs) return false;
  return entry.runStatus === 'idle' && !entry.pending && entry.items > 0;
}

/** The index's entries by chat id (summaries and log entries side by side). */
export function listedEntries(index: ChatIndex): Map<string, ListedChat> {
  const byId = new Map<string, ListedChat>();
  for (const summary of index.sessions) {
    const entry = index.logs[summary.id];
    if (entry) byId.set(summary.id, { summary, entry });
  }
  return byId;
}

/** What the index says of one chat held in memory (read from its log or created here). */
export interface IndexedChat {
  summary: SessionSummary;
  entry: LogEntry;
}

/** The index file's content for these chats, in list order (newest first). */
export function chatIndexOf(chats: readonly IndexedChat[]): ChatIndex {
  const logs: Record<string, LogEntry> = {};
  for (const chat of chats) logs[chat.summary.id] = chat.entry;
  return { version: 2, sessions: chats.map((c) => c.summary), logs };
}

/**
 * An entry no start will trust: for a chat whose log this process cannot vouch for (another
 * process writes it, or it is damaged), so the next start reads the log.
 */
export function untrustedEntry(stamp: LogStamp | null): LogEntry {
  return { size: stamp?.size ?? 0, mtimeMs: -1, runStatus: 'unknown', pending: false, items: 0 };
}

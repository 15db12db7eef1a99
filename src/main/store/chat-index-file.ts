import { join } from 'node:path';
import { z } from 'zod';
import { SessionSummary } from '../../shared/transcript';
import { readRegularFile } from '../common/regular-file';
import { writeFileAtomic } from '../common/atomic-write';

/**
 * `sessions/index.json`: everything the sidebar lists, so a start reads one file instead of every
 * chat's log (docs/architecture.md, "The chat index"). It is a cache of the logs: each chat's
 * entry records the size and modification time of the log it was taken from, and a chat whose
 * log no longer has them is read from its log again. Written atomically (temp, fsync, rename): a
 * kill mid-write leaves the previous index, which the stamps then show to be stale where it is.
 */
export const INDEX_FILE = 'index.json';

/** What the index knows of one chat's log, besides its summary. */
export const LogEntry = z.object({
  /** The log's size and mtime (ms) when the entry was taken: another size or time means it changed since. */
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  /** The last run state the log records ("idle" unless a run was going or paused). */
  runStatus: z.string(),
  /** A question (approval, escalation, ask_user) waits for an answer. */
  pending: z.boolean(),
  /** Transcript items (an empty chat is reused by New chat, so it is always read). */
  items: z.number().int().nonnegative(),
});
export type LogEntry = z.infer<typeof LogEntry>;

const IndexFile = z.object({
  version: z.literal(2),
  /** Newest first, as the sidebar lists them. */
  sessions: z.array(SessionSummary),
  logs: z.record(z.string(), LogEntry),
});
export type ChatIndex = z.infer<typeof IndexFile>;

type IndexRead =
  | { kind: 'ok'; index: ChatIndex }
  | { kind: 'missing' }
  /** An index an older Waypoint wrote (no log stamps): rebuilt without a warning, nothing is wrong. */
  | { kind: 'outdated' }
  | { kind: 'damaged'; reason: string };

export async function readChatIndex(sessionsDir: string): Promise<IndexRead> {
  let text: string;
  try {
    text = (await readRegularFile(join(sessionsDir, INDEX_FILE))).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'damaged', reason: (error as Error).message };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'damaged', reason: `it is not valid JSON (${(error as Error).message})` };
  }
  if (typeof json === 'object' && json !== null && (json as { version?: unknown }).version === 1) return { kind: 'outdated' };
  const parsed = IndexFile.safeParse(json);
  return parsed.success ? { kind: 'ok', index: parsed.data } : { kind: 'damaged', reason: 'it does not match the index format' };
}

export function writeChatIndex(sessionsDir: string, index: ChatIndex): Promise<void> {
  return writeFileAtomic(join(sessionsDir, INDEX_FILE), `${JSON.stringify(index)}\n`, { mode: 0o600 });
}

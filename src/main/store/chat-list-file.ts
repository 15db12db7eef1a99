import { join } from 'node:path';
import { z } from 'zod';
import { SessionSummary } from '../../shared/transcript';
import { readRegularFile } from '../common/regular-file';
import { newestFirst } from '../chats/chat-session';
import { writeFileAtomic } from '../common/atomic-write';

/**
 * `sessions/index.json`: the chat list for the sidebar, written atomically (temp, fsync, rename).
 * It is a cache of the logs: when it is missing, damaged or disagrees with the folders on disk it
 * is rebuilt from them, so losing it never loses a chat.
 */
export const INDEX_FILE = 'index.json';

const IndexFile = z.object({ version: z.literal(1), sessions: z.array(SessionSummary) });

export type IndexRead = { kind: 'ok'; sessions: SessionSummary[] } | { kind: 'missing' } | { kind: 'damaged'; reason: string };

export async function readIndex(sessionsDir: string): Promise<IndexRead> {
  let text: string;
  try {
    text = (await readRegularFile(join(sessionsDir, INDEX_FILE))).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'damaged', reason: (error as Error).message };
  }
  try {
    const parsed = IndexFile.safeParse(JSON.parse(text));
    return parsed.success ? { kind: 'ok', sessions: parsed.data.sessions } : { kind: 'damaged', reason: 'it does not match the index format' };
  } catch (error) {
    return { kind: 'damaged', reason: `it is not valid JSON (${(error as Error).message})` };
  }
}

export function writeIndex(sessionsDir: string, sessions: SessionSummary[]): Promise<void> {
  return writeFileAtomic(join(sessionsDir, INDEX_FILE), `${JSON.stringify({ version: 1, sessions })}\n`, { mode: 0o600 });
}

/** Whether the index lists exactly these chats (by id); otherwise it must be rebuilt. */
export function indexMatches(index: SessionSummary[], ids: readonly string[]): boolean {
  const listed = new Set(index.map((s) => s.id));
  return listed.size === ids.length && ids.every((id) => listed.has(id));
}

/** Serialises index writes and coalesces bursts (many summary changes in one turn) into one. */
export class IndexWriter {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessionsDir: string,
    private readonly snapshot: () => SessionSummary[] | Promise<SessionSummary[]>,
    private readonly delayMs = 150,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.writeNow();
    }, this.delayMs);
    this.timer.unref?.();
  }

  writeNow(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const run = this.chain.then(async () => writeIndex(this.sessionsDir, await this.snapshot()));
    this.chain = run.catch((error: unknown) => console.warn(`[waypoint] could not write the chat index: ${(error as Error).message}`));
    return this.chain;
  }
}

/**
 * The index as this process writes it when others may share the folder: its own chats, plus the
 * chats another process listed that still have a folder (this one may not know them yet).
 */
export async function mergedIndex(sessionsDir: string, known: SessionSummary[], hasFolder: (id: string) => boolean): Promise<SessionSummary[]> {
  const onDisk = await readIndex(sessionsDir);
  if (onDisk.kind !== 'ok') return known;
  const ids = new Set(known.map((s) => s.id));
  const others = onDisk.sessions.filter((s) => !ids.has(s.id) && hasFolder(s.id));
  return others.length ? newestFirst([...known, ...others]) : known;
}

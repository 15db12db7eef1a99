import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * One writer per chat log, across processes (design.md §7): the app, a headless run and an MCP
 * server may share one data folder. A process writes a chat only while it holds the chat's lock,
 * `sessions/<id>.lock`, holding its pid. The locks sit beside the chat folders, so one watch of
 * the sessions folder sees chats appear and writers come and go.
 *
 * A lock whose process is gone (a crash, SIGKILL) is stale: the next writer takes it over and
 * says so. Two processes taking over the same stale lock at once are serialised by a takeover
 * folder (mkdir is atomic), so exactly one wins.
 */

export const LOCK_SUFFIX = '.lock';

export const LockOwner = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** Tells apart two lock holders in one process (and a reused pid from ours). */
  token: z.string(),
  /** Who holds it, in words: "Waypoint web shell", "waypoint mcp (claude-code)". */
  holder: z.string(),
  since: z.string(),
});
export type LockOwner = z.infer<typeof LockOwner>;

export type AcquireResult = { ok: true; tookOverFrom: LockOwner | null } | { ok: false; owner: LockOwner | null };

/** A lock file nobody could have finished writing within this long is garbage, not a writer mid-way. */
const UNREADABLE_GRACE_MS = 5_000;
/** A takeover folder older than this was left by a process that died mid-takeover. */
const TAKEOVER_GRACE_MS = 10_000;

/** Tokens of every lock set alive in this process: a lock with our pid and another token is not ours. */
const liveTokens = new Set<string>();
const liveSets = new Set<ChatLocks>();
let exitHookInstalled = false;

export function lockPathFor(sessionsDir: string, sessionId: string): string {
  return join(sessionsDir, `${sessionId}${LOCK_SUFFIX}`);
}

/** Whether the lock's process still runs. A lock from another machine cannot be checked: it counts as alive. */
export function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return liveTokens.has(owner.token);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type LockRead = { kind: 'missing' } | { kind: 'owner'; owner: LockOwner; raw: string } | { kind: 'unreadable'; raw: string; ageMs: number };

function readLock(path: string): LockRead {
  let raw: string;
  let ageMs: number;
  try {
    raw = readFileSync(path, 'utf8');
    ageMs = Date.now() - statSync(path).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    const parsed = LockOwner.safeParse(JSON.parse(raw));
    if (parsed.success) return { kind: 'owner', owner: parsed.data, raw };
  } catch {
    // fall through: not JSON
  }
  return { kind: 'unreadable', raw, ageMs };
}

/** Who writes a chat right now, seen from outside: null when nobody does (or only a dead process did). */
export function liveWriter(sessionsDir: string, sessionId: string): LockOwner | null {
  const read = readLock(lockPathFor(sessionsDir, sessionId));
  return read.kind === 'owner' && isAlive(read.owner) ? read.owner : null;
}

/** Describes a lock holder for messages: "waypoint mcp (claude-code), pid 1234". */
export function describeOwner(owner: LockOwner): string {
  return `${owner.holder}, pid ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`;
}

/** The chat locks one process holds. Released on dispose and, failing that, when the process exits. */
export class ChatLocks {
  readonly owner: LockOwner;
  private readonly held = new Set<string>();

  constructor(
    private readonly sessionsDir: string,
    holder: string,
  ) {
    this.owner = { pid: process.pid, host: hostname(), token: randomUUID(), holder, since: new Date().toISOString() };
    liveTokens.add(this.owner.token);
    liveSets.add(this);
    installExitHook();
  }

  /** Names this process better once it knows more (an MCP server learns its client's name after start). Locks taken from now on carry it. */
  renameHolder(holder: string): void {
    this.owner.holder = holder;
  }

  holds(sessionId: string): boolean {
    return this.held.has(sessionId);
  }

  /** Takes the chat's lock: free, ours already, or stale (taken over). Refused while a live process holds it. */
  acquire(sessionId: string): AcquireResult {
    if (this.held.has(sessionId)) return { ok: true, tookOverFrom: null };
    const path = lockPathFor(this.sessionsDir, sessionId);
    const mine = `${JSON.stringify(this.owner)}\n`;
    let tookOverFrom: LockOwner | null = null;
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        writeFileSync(path, mine, { flag: 'wx', mode: 0o600 });
        this.held.add(sessionId);
        return { ok: true, tookOverFrom };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          // The folder cannot take a file now (a full disk, the chats folder replaced by a file):
          // nobody else can write there either. This process goes on as the writer; its log
          // writer keeps the records in memory and says so until the folder works again.
          this.held.add(sessionId);
          return { ok: true, tookOverFrom: null };
        }
      }
      const current = readLock(path);
      if (current.kind === 'missing') continue;
      if (current.kind === 'owner' && isAlive(current.owner)) return { ok: false, owner: current.owner };
      if (current.kind === 'unreadable' && current.ageMs < UNREADABLE_GRACE_MS) return { ok: false, owner: null };
      if (this.removeStale(path, current.raw) && current.kind === 'owner') tookOverFrom = current.owner;
    }
    return { ok: false, owner: null };
  }

  /** Gives the lock up if it is still ours (a takeover by someone else is left alone). */
  release(sessionId: string): void {
    if (!this.held.delete(sessionId)) return;
    const path = lockPathFor(this.sessionsDir, sessionId);
    try {
      const read = readLock(path);
      if (read.kind === 'owner' && read.owner.token === this.owner.token) unlinkSync(path);
    } catch {
      // Gone already (the chat was deleted): nothing to release.
    }
  }

  releaseAll(): void {
    for (const id of [...this.held]) this.release(id);
  }

  dispose(): void {
    this.releaseAll();
    liveTokens.delete(this.owner.token);
    liveSets.delete(this);
  }

  /** Removes a stale lock unless someone changed it meanwhile; false when another process is taking it over. */
  private removeStale(path: string, raw: string): boolean {
    const mutex = `${path}.takeover`;
    try {
      mkdirSync(mutex);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(mutex).mtimeMs > TAKEOVER_GRACE_MS) rmdirSync(mutex);
      } catch {
        // Someone else cleaned it up.
      }
      return false;
    }
    try {
      const again = readLock(path);
      if (again.kind !== 'missing' && again.raw === raw) unlinkSync(path);
      return true;
    } finally {
      rmdirSync(mutex);
    }
  }
}

/** A process that exits without disposing (process.exit, an uncaught error) still lets go of its chats. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const set of liveSets) set.releaseAll();
  });
}

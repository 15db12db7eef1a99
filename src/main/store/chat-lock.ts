import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { bootId, processEnded, processStartTime } from './process-identity';

/**
 * One writer per chat log, across processes (docs/architecture.md): the app, a headless run and an
 * MCP server may share one data folder. A process writes a chat only while it holds the chat's
 * lock, `sessions/<id>.lock`. The locks sit beside the chat folders, so one watch of the sessions
 * folder sees chats appear and writers come and go.
 *
 * A lock names its process by pid, start time, host and boot, so a lock is known to be stale when
 * its process is gone, when its pid now belongs to another process (the start time differs) or
 * when the machine restarted since (the boot differs). A stale lock is taken over, and said so.
 * Two processes taking over the same lock at once are serialised by a takeover folder (mkdir is
 * atomic), so exactly one wins. A lock that cannot be proven stale or alive (another host's, or an
 * older Waypoint's without a start time whose pid runs) is left alone unless the user takes it
 * over (`takeOver`); the holder that lost it notices (`verify`) and stops writing.
 */

export const LOCK_SUFFIX = '.lock';

/** Who held a lock before it was taken over, as the new lock records it. */
const PreviousOwner = z.object({ pid: z.number(), host: z.string(), holder: z.string(), since: z.string() });

export const LockOwner = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** Tells apart two lock holders in one process (and a reused pid from ours). */
  token: z.string(),
  /** Who holds it, in words: "Waypoint web shell", "waypoint mcp (claude-code)". */
  holder: z.string(),
  since: z.string(),
  /** When the process started (process-identity.ts); absent in older locks and where unknown. */
  startTime: z.string().optional(),
  /** The machine's boot the process ran in; absent in older locks and where unknown. */
  bootId: z.string().optional(),
  /** Set when this lock was taken over by the user from a holder that still looked alive. */
  tookOverFrom: PreviousOwner.optional(),
});
export type LockOwner = z.infer<typeof LockOwner>;

/**
 * What can be known of a lock's holder from here. `unverified`: it may be alive, nothing proves
 * otherwise (another host's lock, or a live pid with no start time to compare); only the user may
 * take it over.
 */
export type LockState = { kind: 'alive' } | { kind: 'stale'; why: string } | { kind: 'unverified'; why: 'other_host' | 'no_start_time' };

export type AcquireResult =
  | { ok: true; tookOverFrom: LockOwner | null; why?: string; cleared?: string }
  | { ok: false; owner: LockOwner | null; state?: LockState };

/** A lock file nobody could have finished writing within this long is garbage, not a writer mid-way. */
const UNREADABLE_GRACE_MS = 5_000;
/** A takeover folder older than this was left by a process that died mid-takeover. */
const TAKEOVER_GRACE_MS = 10_000;
/** A lock file is a few hundred bytes; anything much bigger is not one (and is not read whole). */
const LOCK_MAX_BYTES = 64 * 1024;

/** Tokens of every lock set alive in this process: a lock with our pid and another token is not ours. */
const liveTokens = new Set<string>();
const liveSets = new Set<ChatLocks>();
let exitHookInstalled = false;

export function lockPathFor(sessionsDir: string, sessionId: string): string {
  return join(sessionsDir, `${sessionId}${LOCK_SUFFIX}`);
}

/** Whether the lock's holder still runs, may run, or certainly does not (see LockState). */
export function lockState(owner: LockOwner): LockState {
  if (owner.host !== hostname()) return { kind: 'unverified', why: 'other_host' };
  const boot = bootId();
  if (owner.bootId && boot && owner.bootId !== boot) return { kind: 'stale', why: 'ran before the computer restarted' };
  if (owner.pid === process.pid) return liveTokens.has(owner.token) ? { kind: 'alive' } : { kind: 'stale', why: 'is no longer running' };
  if (gone(owner.pid)) return { kind: 'stale', why: 'is no longer running' };
  if (processEnded(owner.pid)) return { kind: 'stale', why: 'is no longer running' };
  const started = processStartTime(owner.pid);
  // No start time because the pid is gone by now (a zombie reaped between the looks): stale, not unknown.
  if (!started && gone(owner.pid)) return { kind: 'stale', why: 'is no longer running' };
  if (!owner.startTime || !started) return { kind: 'unverified', why: 'no_start_time' };
  return started === owner.startTime ? { kind: 'alive' } : { kind: 'stale', why: `is no longer running (pid ${owner.pid} is another process now)` };
}

/** No process has this pid (signal 0 reaches none; EPERM: one exists but belongs to someone else). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/** Whether the lock's holder may still run: anything not proven stale counts as alive. */
export function isAlive(owner: LockOwner): boolean {
  return lockState(owner).kind !== 'stale';
}

/** What sits at a lock's path: nothing, a lock, a file not (yet) a lock, or something no lock ever is. */
type LockRead =
  | { kind: 'missing' }
  | { kind: 'owner'; owner: LockOwner; raw: string }
  | { kind: 'unreadable'; raw: string; ageMs: number }
  | { kind: 'odd'; what: 'a symbolic link' | 'a folder' | 'not a regular file' };

/**
 * Reads a lock without following a link and without blocking: a FIFO planted at the path would
 * otherwise hang the read (and the app) until someone writes to it.
 */
function readLock(path: string): LockRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    // O_NOFOLLOW refuses a link with ELOOP (EMLINK on some BSDs).
    if (code === 'ELOOP' || code === 'EMLINK') return { kind: 'odd', what: 'a symbolic link' };
    if (code === 'EISDIR') return { kind: 'odd', what: 'a folder' };
    // A socket (or a device without a driver) cannot be opened as a file at all.
    if (code === 'ENXIO' || code === 'EOPNOTSUPP' || code === 'ENODEV') return { kind: 'odd', what: 'not a regular file' };
    throw error;
  }
  let raw: string;
  let ageMs: number;
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { kind: 'odd', what: 'a folder' };
    if (!stat.isFile()) return { kind: 'odd', what: 'not a regular file' };
    ageMs = Date.now() - stat.mtimeMs;
    const buffer = Buffer.alloc(Math.min(stat.size, LOCK_MAX_BYTES));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    raw = buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
  try {
    const parsed = LockOwner.safeParse(JSON.parse(raw));
    if (parsed.success) return { kind: 'owner', owner: parsed.data, raw };
  } catch {
    // fall through: not JSON
  }
  return { kind: 'unreadable', raw, ageMs };
}

/** Who holds a chat's lock now, with what can be known of it; null when nobody does. */
export function lockHolder(sessionsDir: string, sessionId: string): { owner: LockOwner; state: LockState } | null {
  const read = readLock(lockPathFor(sessionsDir, sessionId));
  return read.kind === 'owner' ? { owner: read.owner, state: lockState(read.owner) } : null;
}

/** Who writes a chat right now, seen from outside: null when nobody does (or only a dead process did). */
export function liveWriter(sessionsDir: string, sessionId: string): LockOwner | null {
  const read = readLock(lockPathFor(sessionsDir, sessionId));
  return read.kind === 'owner' && isAlive(read.owner) ? read.owner : null;
}

/** Describes a lock holder for messages: "waypoint mcp (claude-code), pid 1234". */
export function describeOwner(owner: Pick<LockOwner, 'holder' | 'pid' | 'host'>): string {
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
    const startTime = processStartTime(process.pid);
    const boot = bootId();
    this.owner = {
      pid: process.pid,
      host: hostname(),
      token: randomUUID(),
      holder,
      since: new Date().toISOString(),
      ...(startTime ? { startTime } : {}),
      ...(boot ? { bootId: boot } : {}),
    };
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

  /** Takes the chat's lock: free, ours already, or stale (taken over). Refused while a live process holds it (or may). */
  acquire(sessionId: string): AcquireResult {
    return this.take(sessionId, null);
  }

  /**
   * The user's "Take over": takes the lock from a holder that cannot be proven alive or stale
   * (another host's, an older Waypoint's), naming it in the new lock. `token` is the lock the user
   * was shown: a lock that changed since is not taken. A holder proven alive keeps its lock.
   */
  takeOver(sessionId: string, token: string): AcquireResult {
    return this.take(sessionId, token);
  }

  /**
   * Whether the lock this process holds is still its own: false (and it is no longer held) when
   * someone took it over. A lock file that vanished is written again: nobody else holds the chat.
   */
  verify(sessionId: string): { ok: true } | { ok: false; by: LockOwner | null } {
    if (!this.held.has(sessionId)) return { ok: false, by: null };
    const path = lockPathFor(this.sessionsDir, sessionId);
    let read: LockRead;
    try {
      read = readLock(path);
    } catch {
      // The folder is unusable for now: nobody else can take the lock there either.
      return { ok: true };
    }
    if (read.kind === 'owner' && read.owner.token === this.owner.token) return { ok: true };
    if (read.kind === 'missing') {
      try {
        writeFileSync(path, `${JSON.stringify(this.owner)}\n`, { flag: 'wx', mode: 0o600 });
        return { ok: true };
      } catch (error) {
        // The folder takes no file now (a full disk): nobody else can take the lock there either.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: true };
        // Someone took it in between: read again below.
        read = readLock(path);
        if (read.kind === 'owner' && read.owner.token === this.owner.token) return { ok: true };
      }
    }
    this.held.delete(sessionId);
    return { ok: false, by: read.kind === 'owner' ? read.owner : null };
  }

  private take(sessionId: string, forceToken: string | null): AcquireResult {
    if (this.held.has(sessionId)) return { ok: true, tookOverFrom: null };
    const path = lockPathFor(this.sessionsDir, sessionId);
    let tookOverFrom: LockOwner | null = null;
    let forced = false;
    let why: string | undefined;
    let cleared: string | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const mine: LockOwner = { ...this.owner, ...(forced && tookOverFrom ? { tookOverFrom: previous(tookOverFrom) } : {}) };
      try {
        writeFileSync(path, `${JSON.stringify(mine)}\n`, { flag: 'wx', mode: 0o600 });
        this.held.add(sessionId);
        return { ok: true, tookOverFrom, ...(why ? { why } : {}), ...(cleared ? { cleared } : {}) };
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
      if (current.kind === 'odd') {
        // Never a lock Waypoint wrote: nobody holds the chat through it. It is moved aside, not
        // deleted (a folder may hold someone's files), and the chat is taken.
        const aside = this.setAside(path, current.what);
        if (aside) cleared = aside;
        continue;
      }
      if (current.kind === 'unreadable') {
        if (current.ageMs < UNREADABLE_GRACE_MS) return { ok: false, owner: null };
        this.removeStale(path, current.raw);
        continue;
      }
      const state = lockState(current.owner);
      if (state.kind === 'alive') return { ok: false, owner: current.owner, state };
      if (state.kind === 'unverified' && current.owner.token !== forceToken) return { ok: false, owner: current.owner, state };
      if (this.removeStale(path, current.raw)) {
        tookOverFrom = current.owner;
        forced = state.kind === 'unverified';
        why = state.kind === 'stale' ? state.why : undefined;
      }
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
    return this.underMutex(path, () => {
      const again = readLock(path);
      if (again.kind === 'owner' || again.kind === 'unreadable') {
        if (again.raw !== raw) return false;
        unlinkSync(path);
      }
      return true;
    });
  }

  /**
   * Moves what is not a lock out of the lock's way: a link is removed (only the link), anything
   * else renamed beside it. Returns what was done, in words, or null when another process is at it.
   */
  private setAside(path: string, what: string): string | null {
    const done = this.underMutex(path, (): string | null => {
      const again = readLock(path);
      if (again.kind !== 'odd') return null;
      if (again.what === 'a symbolic link') {
        unlinkSync(path);
        return `${basename(path)} was a symbolic link, not a lock; the link was removed`;
      }
      const aside = `${path}.set-aside-${Date.now()}`;
      renameSync(path, aside);
      return `${basename(path)} was ${what}, not a lock; it was moved to ${basename(aside)}`;
    });
    return done || null;
  }

  private underMutex<T>(path: string, act: () => T): T | false {
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
      return act();
    } finally {
      rmdirSync(mutex);
    }
  }
}

function previous(owner: LockOwner): z.infer<typeof PreviousOwner> {
  return { pid: owner.pid, host: owner.host, holder: owner.holder, since: owner.since };
}

/** A process that exits without disposing (process.exit, an uncaught error) still lets go of its chats. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const set of liveSets) set.releaseAll();
  });
}

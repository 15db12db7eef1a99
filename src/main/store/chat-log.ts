import { mkdirSync, statSync, truncateSync } from 'node:fs';
import { describeOwner, type AcquireResult, type ChatLocks, type LockOwner } from './chat-lock';
import type { FolderWatch } from './folder-watch';
import type { LogEntry } from './log-records';
import type { LogTail } from './log-tail';
import type { ChatLogWriter } from './log-writer';
import type { PagedItems } from './paging/paged-items';

/** What a chat's log needs of the logs it is one of (ChatLogs): the shared locks, folder and writers. */
export interface ChatLogHost {
  readonly locks: ChatLocks;
  warn(message: string): void;
  /** This process shows windows (they have the "Take over" button); otherwise it points there. */
  readonly follows: boolean;
  /** Whether this chat may be written by this process at all (not read-only, not disposed). */
  mayWrite(sessionId: string): boolean;
  newWriter(sessionId: string, nextSeq: number, startsAt: number): ChatLogWriter;
  /** Reads what other processes appended to the log since this process last looked; how many records. */
  catchUp(log: ChatLog): number;
  watch(): FolderWatch | null;
  /** Where the chat's inbox is watched while this process writes it; null when it takes no requests. */
  inbox(sessionId: string): string | null;
  /** Another process left a run open in the log: closed here, as a restart closes it. */
  closeLeftRun(log: ChatLog): void;
  lockLost(sessionId: string, by: LockOwner | null): void;
}

/**
 * One chat's log as this process sees it: where it stands in the file (`tail`), the writer while
 * it holds the chat's lock, and the streamed text not yet written. It claims the chat's lock
 * (catching up on what others appended and cutting a torn line first), writes records each after
 * the text streamed before it, flushes that text, and releases the lock; ChatLogs coordinates
 * when each of these happens.
 */
export class ChatLog {
  /** Set while this process holds the chat's lock and writes it; null while it follows. */
  writer: ChatLogWriter | null = null;
  lastRunStatus = 'idle';
  lastSummaryJson = '';
  releaseTimer: ReturnType<typeof setTimeout> | null = null;
  /** Another process held the lock at the last look: its appends are read as they come. */
  followed = false;
  private readonly pendingText = new Map<string, string>();
  /**
   * The writer whose lock was read back as this process's in the current turn of the event loop
   * (cleared when the turn's JavaScript is done): the records of one turn share one lock read.
   */
  private verifiedWriter: ChatLogWriter | null = null;

  /**
   * `tail`: where this process stands in the log (what it has read or written). `items`: the
   * chat's paged items, told where each record lands so an item may leave memory.
   */
  constructor(
    readonly id: string,
    readonly tail: LogTail,
    private readonly items: () => PagedItems | undefined,
    private readonly host: ChatLogHost,
  ) {}

  /**
   * Takes the chat's lock, reads what other processes appended since this one last looked, cuts
   * a torn last line a dead writer left, and opens the log for appending. Returns why not, or null.
   * `leftByOther`: the chat in memory is another process's, as it logged it.
   */
  claim(leftByOther = false): string | null {
    const acquired = this.host.locks.acquire(this.id);
    if (!acquired.ok) {
      const who = acquired.owner ? describeOwner(acquired.owner) : 'another Waypoint process';
      if (acquired.owner && acquired.state?.kind === 'unverified') {
        const why = acquired.state.why === 'other_host' ? `Waypoint cannot check from here whether it still runs on ${acquired.owner.host}` : 'Waypoint cannot tell whether that process is still the one that took it';
        // Only a window has the button; a headless run or an MCP server points there.
        const then = this.host.follows ? 'If it is not running, press Take over.' : 'If it is not running, open the chat in the Waypoint app and take it over there.';
        return `This chat is being written by ${who} (since ${acquired.owner.since}); ${why}. ${then}`;
      }
      return `This chat is being written by ${who}. Wait until it finishes (or stop it there), then try again.`;
    }
    this.becomeWriter(acquired, leftByOther);
    return null;
  }

  /** The user's "Take over" of the lock `token` names: the lock's answer; on success this process writes the chat. */
  takeOver(token: string): AcquireResult {
    const acquired = this.host.locks.takeOver(this.id, token);
    if (acquired.ok) this.becomeWriter(acquired);
    return acquired;
  }

  /** This process writes the chat, claiming it first if needed; false (warned) when it may not. */
  writable(): boolean {
    if (this.writer && !this.lockLost()) return true;
    // A read-only chat (its log damaged or changed behind its writer) is never written again.
    if (!this.host.mayWrite(this.id)) return false;
    const refused = this.claim();
    if (refused) this.host.warn(`Not written to chat ${this.id}: ${refused}`);
    return !refused;
  }

  /** Writes a record after the text streamed before it, claiming the chat first if needed. */
  write(entry: LogEntry): void {
    if (!this.writable()) return;
    try {
      this.append(entry);
    } catch (error) {
      this.host.warn(`could not write to the log of chat ${this.id}: ${(error as Error).message}`);
    }
  }

  /** Streamed text waits here (joined per item) until the next record or the text timer. */
  bufferText(itemId: string, text: string): void {
    this.pendingText.set(itemId, (this.pendingText.get(itemId) ?? '') + text);
  }

  get hasPendingText(): boolean {
    return this.pendingText.size > 0;
  }

  /** Writes the streamed text that waits, claiming the chat first if needed. */
  flush(): void {
    if (!this.hasPendingText || !this.writable()) return;
    this.writeText();
  }

  /**
   * Whether someone took over the lock this process writes under (read from its small file before
   * the first record of each turn of the event loop, and on every poll). If so, this process stops
   * writing the chat at once, what it had not written yet is dropped, and it follows the log from
   * where its own records end. One read per turn, not per record: a planning reply writes dozens
   * of records in one turn, and the read was a third of each record's cost (bench/README.md,
   * "Issue 24, fourth pass"); docs/security.md says why a turn's window is still safe.
   */
  lockLost(): boolean {
    if (!this.writer) return false;
    if (this.verifiedWriter === this.writer) return false;
    const verified = this.host.locks.verify(this.id);
    if (verified.ok) {
      this.verifiedWriter = this.writer;
      // process.nextTick runs once this turn's callback and its promise jobs are done: the tool
      // calls of one reply (awaited one after another) still share the read.
      process.nextTick(() => (this.verifiedWriter = null));
      return false;
    }
    this.dropWriter();
    const inbox = this.host.inbox(this.id);
    if (inbox) this.host.watch()?.remove(inbox);
    if (this.host.follows) this.host.watch()?.add(this.tail.path);
    const who = verified.by ? describeOwner(verified.by) : 'another process';
    this.host.warn(`Chat ${this.id} was taken over by ${who}; this process no longer writes it.`);
    this.host.lockLost(this.id, verified.by);
    return true;
  }

  /** Stops writing: what is buffered goes out first (under a lock still this process's); the log is followed from its end on. */
  stopWriting(): void {
    if (this.hasPendingText && this.lockLost()) return;
    this.cancelRelease();
    if (!this.writer) return;
    this.writeText();
    const writer = this.writer;
    this.writer = null;
    this.tail.lastSeq = writer.nextSeq - 1;
    try {
      this.tail.offset = statSync(this.tail.path).size;
    } catch {
      // Deleted: nothing left to follow.
    }
    writer.close();
    const inbox = this.host.inbox(this.id);
    if (inbox) this.host.watch()?.remove(inbox);
  }

  /** Gives the chat's lock back (writing what is buffered first), so another process may write it. */
  release(): void {
    this.stopWriting();
    this.host.locks.release(this.id);
  }

  cancelRelease(): void {
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
  }

  /** Stops at once (dispose, or the log changed behind its writer): nothing more is written. */
  close(): void {
    this.cancelRelease();
    this.writer?.close();
    this.writer = null;
  }

  /**
   * With the lock taken: reads what others appended, cuts a torn line, opens the log for appending,
   * and closes a run another process left open.
   */
  private becomeWriter(acquired: Extract<AcquireResult, { ok: true }>, leftByOther = false): void {
    const { host } = this;
    if (acquired.cleared) host.warn(`Chat ${this.id}: ${acquired.cleared}; this process writes the chat now.`);
    if (acquired.tookOverFrom) {
      const why = acquired.why ?? 'may still be running (taken over by the user)';
      host.warn(`Chat ${this.id} was left locked by ${describeOwner(acquired.tookOverFrom)}, which ${why}; this process took it over. Everything it logged is kept.`);
    }
    // Followed, or loaded while another process wrote it: taken as logged, never repaired here.
    const othersChat = leftByOther || this.followed;
    const appended = host.catchUp(this);
    const torn = this.tail.tornBytes();
    if (torn > 0) {
      truncateSync(this.tail.path, this.tail.offset);
      host.warn(`${this.tail.path}: dropped a torn last line (${torn} bytes) left by a process that stopped mid-write.`);
    }
    this.followed = false;
    host.watch()?.remove(this.tail.path);
    this.writer = host.newWriter(this.id, this.tail.lastSeq + 1, this.tail.offset);
    const inbox = host.inbox(this.id);
    if (inbox) {
      try {
        mkdirSync(inbox, { recursive: true });
        host.watch()?.add(inbox);
      } catch {
        // The folder is unusable for now (the writer reports it); the poll still looks for requests.
      }
    }
    // The process that ran it is gone (or no longer writes it): its run is closed here as a
    // restart closes it, before anything this process does goes on from it. Waiting for the folder
    // poll to notice is not enough: the user's action may come first (the shell started while the
    // killed writer's lock still looked alive), and it would send the open tool calls to the API.
    if ((othersChat || appended > 0) && this.lastRunStatus !== 'idle') host.closeLeftRun(this);
  }

  /** Appends a record after the text streamed before it. Only while writing (`writer` set). */
  private append(entry: LogEntry): void {
    if (entry.type !== 'created') this.writeText();
    // An item's record tells the chat where it lies once it is in the file (the item may then leave memory).
    const written = entry.type === 'item' ? this.items()?.recording(entry.item.id, 'item') : undefined;
    this.writer!.append(entry, written ? { written } : {});
  }

  /** Writes the streamed text that waits. Only while writing (`writer` set). */
  private writeText(): void {
    if (!this.pendingText.size) return;
    const items = this.items();
    for (const [itemId, text] of this.pendingText) {
      const written = items?.recording(itemId, 'text');
      this.writer!.append({ type: 'text', itemId, text }, written ? { written } : {});
    }
    this.pendingText.clear();
  }

  /** Another process took the lock: what was not written yet is dropped, and the log is followed from where this process's records end. */
  private dropWriter(): void {
    const writer = this.writer;
    if (!writer) return;
    this.writer = null;
    this.cancelRelease();
    this.pendingText.clear();
    this.tail.lastSeq = writer.nextSeq - 1;
    this.tail.offset = writer.endOffset ?? this.tail.offset;
    writer.close();
    this.followed = true;
  }
}

import { readdirSync, statSync, type Dirent } from 'node:fs';
import type { WaypointEvent } from '../../shared/contract';
import type { ChatLog } from './chat-log';
import type { ChatHost, PlanHost } from './chat-log-ports';
import { LOCK_SUFFIX, type LockOwner } from './chat-lock';
import type { FolderWatch } from './folder-watch';
import { loadChat, type LoadedChat } from './load-chats';
import type { LineSpan } from './log-reader';
import type { LogRecord } from './log-records';
import { mirrorRecords } from './mirror-records';

/** What following needs of the chats' logs (ChatLogs gives it). */
export interface FollowerHost {
  readonly sessionsDir: string;
  readonly logs: ReadonlyMap<string, ChatLog>;
  /** Chats listed from the chat index whose logs are not read yet (store/chat-index.ts). */
  readonly unread: ReadonlyMap<string, unknown>;
  readonly chat: ChatHost;
  readonly plans: PlanHost;
  readonly keepRecent: number | undefined;
  warn(message: string): void;
  watch(): FolderWatch | null;
  logPath(sessionId: string): string;
  isReadOnly(sessionId: string): boolean;
  /** A chat this process is deleting: its folder, still there a moment, is not a chat to discover. */
  isDeleting(sessionId: string): boolean;
  writerElsewhere(sessionId: string): LockOwner | null;
  /** Puts a chat read from its log into the services and keeps its log. */
  adopt(entry: LoadedChat): void;
  /** Reads a chat only listed from its log and adopts it (another process took its lock). */
  readUnread(sessionId: string): void;
  /** A chat only listed whose folder is gone: it leaves the list. */
  dropUnread(sessionId: string): void;
  /** Another process deleted the chat. */
  forget(log: ChatLog): void;
  /** The process running the chat died mid-run: take it over and close the run. */
  repairAbandoned(log: ChatLog): void;
  /** The log says something its writer never wrote: the chat goes read-only. */
  changedElsewhere(sessionId: string, what: string): void;
  /** An event this process did not cause: announced, never logged again. */
  emitMirrored(sessionId: string, event: WaypointEvent): void;
}

/**
 * Follows the chats other processes write on the same data folder: their appends are read and
 * applied as this process's services would have fired them (the window updates live), the chats
 * they create are listed, those they delete go (chats only listed from the chat index too; one another
 * process starts writing is read), and a run whose process died is handed back to
 * be closed. It writes nothing itself.
 */
export class LogFollower {
  /** Chat folders seen without a readable chat yet, by log size, so they are not read on every tick. */
  private readonly unreadable = new Map<string, number>();

  constructor(private readonly host: FollowerHost) {}

  /** Reads and applies what another process appended to the chat's log. */
  follow(log: ChatLog): number {
    const read = log.tail.read();
    if (read.kind === 'gone') return 0;
    for (const warning of read.warnings) this.host.warn(warning);
    if (read.records.length) this.mirror(log, read.records, read.spans);
    return read.records.length;
  }

  /** Applies another process's records as this process's services would have fired them. */
  private mirror(log: ChatLog, records: readonly LogRecord[], spans: readonly LineSpan[]): void {
    const { chat, plans } = this.host;
    const session = chat.sessionState(log.id);
    if (!session) return;
    mirrorRecords(records, spans, {
      session,
      emit: (event) => this.host.emitMirrored(log.id, event),
      restorePlan: (plan) => plans.restore(log.id, plan),
      dropPlan: () => plans.drop(log.id),
      summaryLogged: (json) => (log.lastSummaryJson = json),
      runStatus: (status) => (log.lastRunStatus = status),
      // The log says something its writer never wrote: this process stops following it and shows the chat read-only.
      unfit: (problem) => queueMicrotask(() => this.host.changedElsewhere(log.id, problem)),
    });
  }

  /** One look at the data folder: chats created and deleted by others, appends by their writers. */
  followFolder(): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(this.host.sessionsDir, { withFileTypes: true });
    } catch {
      return;
    }
    const folders = new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name));
    const locked = new Set(entries.filter((e) => e.isFile() && e.name.endsWith(LOCK_SUFFIX)).map((e) => e.name.slice(0, -LOCK_SUFFIX.length)));

    // A chat only listed: gone with its folder, or read once another process writes it (its appends are followed from then on).
    for (const id of [...this.host.unread.keys()]) {
      if (!folders.has(id)) this.host.dropUnread(id);
      else if (locked.has(id) && this.host.writerElsewhere(id)) this.host.readUnread(id);
    }
    for (const id of folders) if (!this.host.logs.has(id) && !this.host.isReadOnly(id) && !this.host.isDeleting(id) && !this.host.unread.has(id)) this.discover(id);
    for (const log of [...this.host.logs.values()]) {
      if (log.writer) continue;
      if (!folders.has(log.id)) {
        this.host.forget(log);
        continue;
      }
      const writer = locked.has(log.id) ? this.host.writerElsewhere(log.id) : null;
      if (writer) {
        if (!log.followed) this.host.watch()?.add(log.tail.path);
        log.followed = true;
        this.follow(log);
      } else if (log.followed) {
        // Its writer let go (or died): read what it wrote last.
        log.followed = false;
        this.host.watch()?.remove(log.tail.path);
        this.follow(log);
        if (log.lastRunStatus !== 'idle' && locked.has(log.id)) this.host.repairAbandoned(log);
      }
    }
  }

  /** A chat another process created: listed at once, and followed while that process writes it. */
  private discover(id: string): void {
    const path = this.host.logPath(id);
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return;
    }
    if (this.unreadable.get(id) === size) return;
    const elsewhere = !!this.host.writerElsewhere(id);
    const quiet = (message: string) => {
      if (!/no valid "created" record|listed as damaged/.test(message)) this.host.warn(message);
    };
    const entry = loadChat(path, id, quiet, elsewhere, this.host.keepRecent);
    // A log with nothing readable yet is one its writer has only just begun: look again later.
    if (!entry || entry.damaged) {
      this.unreadable.set(id, size);
      return;
    }
    this.unreadable.delete(id);
    this.host.adopt(entry);
    const summary = this.host.chat.sessionState(id)?.summary;
    if (summary) this.host.emitMirrored(id, { type: 'session_updated', session: summary });
  }
}

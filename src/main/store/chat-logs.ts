import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import type { SessionSummary } from '../../shared/transcript';
import { DisposableStore, Emitter, type AsyncDisposable } from '../common/emitter';
import { UserFacingError } from '../common/errors';
import { awaitReply, inboxDir, sendToInbox, type InboxReply, type InboxRequest, type TakenRequest } from './chat-inbox';
import { ChatLog, type ChatLogHost } from './chat-log';
import { dispatchInbox } from './inbox-dispatch';
import { closedLeftRun } from './left-run';
import { LogFollower } from './log-follower';
import { ChatLocks, describeOwner, liveWriter, lockHolder, type LockOwner, type LockState } from './chat-lock';
import { FolderWatch } from './folder-watch';
import type { ChatHost, PlanHost, RunHost, UsageRecord } from './chat-log-ports';
import { loadChat, loadChats, type LoadedChat } from './load-chats';
import type { LogFileSystem } from './log-file-system';
import type { LogEntry } from './log-records';
import { LogTail } from './log-tail';
import { ChatLogWriter } from './log-writer';
import { hasPendingPrompt, planAsks, type RestoredChat } from './restore-chat';
import { withPlanProgress, type HistoryEvent } from '../chats/chat-session';
import type { KeptVersion } from '../chats/chat-versions';
import type { HistoryChange } from '../chats/history-change';
import { searchableChat, searchChats, type SearchHit } from './search/chat-search';
import { pagedItemsOf } from './paging/paged-items';
import { IndexWriter, mergedIndex } from './chat-list-file';
import type { LogEntry as IndexEntry } from './chat-index-file';
import { byActivity, chatIndexOf, stampOf, untrustedEntry, type IndexedChat, type ListedChat } from './chat-index';
import { searchLog } from './unread-search';

export const SESSIONS_DIR = 'sessions';
export const LOG_FILE = 'events.jsonl';
/** Streamed text is written at most this often (and before any other record of the chat). */
const TEXT_FLUSH_MS = 200;
/** How often chats other processes write are read again when file watching says nothing. */
const FOLLOW_POLL_MS = 400;
/** How long a forwarded Stop waits for the writer's answer: its poll is 400 ms, so this is many looks. */
const REPLY_TIMEOUT_MS = 4_000;

export interface ChatLogsOptions {
  dataDir: string;
  chat: ChatHost;
  /** The runs' usage and copies; absent where no conversation loop runs (`waypoint mcp`). */
  runs?: RunHost;
  plans: PlanHost;
  warn?: (message: string) => void;
  /** Who this process is, in lock files and in messages to other processes ("Waypoint web shell"). */
  holder?: string;
  /** Follow the chats other processes write, live, and list chats they create (the shells). */
  follow?: boolean;
  /** Give a chat's lock back after it has been idle this long (the shells); otherwise held until dispose. */
  releaseIdleMs?: number;
  /** What another process asks of a chat this one writes (chat-inbox.ts); no inbox without it. What it returns goes back to the sender. */
  onRequest?: (sessionId: string, taken: TakenRequest) => InboxReply | void;
  /** Someone took over a chat this process wrote (the user's "Take over" elsewhere): nothing more of it is written here. */
  onLockLost?: (sessionId: string, by: LockOwner | null) => void;
  /** How long a forwarded request waits for the writer's answer (default 4 s). */
  replyTimeoutMs?: number;
  /** The log writers' file system (tests put faults in it). */
  fs?: LogFileSystem;
  /** First retry after a failed write (default 500 ms). */
  retryMs?: number;
  /** How many of each chat's newest items stay in memory; older ones are read from its log (paged-items.ts). */
  keepRecent?: number;
}

/** A chat's log stopped being written (records wait in memory), or is written again. */
export type SaveState = { sessionId: string; status: 'failing'; error: NodeJS.ErrnoException } | { sessionId: string; status: 'saved' };

/**
 * Persists every chat as an append-only event log and brings them all back on start. It only
 * listens: the chat and plan services own the state and fire events; this writes them down in
 * order (see log-writer.ts for the fsync policy).
 *
 * Several processes may share the data folder (the app, `waypoint run`, `waypoint mcp`): each chat
 * has one writer at a time, the holder of its lock (chat-lock.ts). A process claims a chat before
 * it changes it, catching up on what others appended first; the shells give it back once it is
 * idle and follow what the others write, so their windows show those chats live.
 */
export class ChatLogs implements AsyncDisposable {
  private readonly logs = new Map<string, ChatLog>();
  private readonly subscriptions = new DisposableStore();
  private readonly index: IndexWriter;
  private readonly locks: ChatLocks;
  private textTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly warn: (message: string) => void;
  private watch: FolderWatch | null = null;
  private readonly follower: LogFollower;
  /** What each chat's log needs of these logs to claim, write and release itself. */
  private readonly logHost: ChatLogHost;
  /** Set while events read from another process's log are applied: they are logged already. */
  private mirroring = false;
  private disposed = false;
  private readonly saveStates = new Emitter<SaveState>();
  /** Fires when a chat's log fails to be written and when it is written again. */
  readonly onSaveState = this.saveStates.event;
  /** Why the chats could not be loaded at start (the sessions folder is unusable), or null. */
  loadProblem: string | null = null;
  /** Damaged chats: listed and readable, never written. */
  private readonly readOnly = new Set<string>();
  /** Chats whose folder is being removed: the follower must not take the folder for a new chat and write it again. */
  private readonly deleting = new Set<string>();
  /** Chats listed from the chat index whose logs are not read yet, with what the index said of them. */
  private readonly unread = new Map<string, IndexEntry>();

  private constructor(
    private readonly options: ChatLogsOptions,
    readonly sessionsDir: string,
  ) {
    this.warn = options.warn ?? ((message) => console.warn(`[waypoint] ${message}`));
    this.locks = new ChatLocks(sessionsDir, options.holder ?? 'Waypoint');
    this.index = new IndexWriter(sessionsDir, () => mergedIndex(sessionsDir, this.indexNow(), (id) => existsSync(join(sessionsDir, id))));
    this.logHost = {
      locks: this.locks,
      warn: this.warn,
      follows: !!options.follow,
      mayWrite: (id) => !this.readOnly.has(id) && !this.disposed,
      newWriter: (id, nextSeq, startsAt) => this.newWriter(id, nextSeq, startsAt),
      catchUp: (log) => this.follower.follow(log),
      watch: () => this.watch,
      inbox: (id) => (options.onRequest ? inboxDir(join(sessionsDir, id)) : null),
      closeLeftRun: (log) => this.closeLeftRun(log),
      lockLost: (id, by) => options.onLockLost?.(id, by),
    };
    this.follower = new LogFollower({
      sessionsDir,
      logs: this.logs,
      unread: this.unread,
      chat: options.chat,
      plans: options.plans,
      keepRecent: options.keepRecent,
      warn: this.warn,
      watch: () => this.watch,
      logPath: (id) => this.logPath(id),
      isReadOnly: (id) => this.readOnly.has(id),
      isDeleting: (id) => this.deleting.has(id),
      writerElsewhere: (id) => this.writerElsewhere(id),
      adopt: (entry) => this.adopt(entry),
      readUnread: (id) => this.readUnread(id),
      dropUnread: (id) => this.dropUnread(id),
      forget: (log) => this.forget(log),
      repairAbandoned: (log) => this.repairAbandoned(log),
      changedElsewhere: (id, what) => this.changedElsewhere(id, what),
      emitMirrored: (id, event) => this.emitMirrored(id, event),
    });
  }

  /** Loads every chat from disk into the chat and plan services, then starts logging. */
  static async open(options: ChatLogsOptions): Promise<ChatLogs> {
    const persistence = new ChatLogs(options, join(options.dataDir, SESSIONS_DIR));
    await persistence.load();
    return persistence;
  }

  logPath(sessionId: string): string {
    return join(this.sessionsDir, sessionId, LOG_FILE);
  }

  /** How this process is named in the locks it takes from now on, and so in "being written by …". */
  renameHolder(holder: string): void {
    this.locks.renameHolder(holder);
  }

  /** The process that writes this chat now, when it is another live one. */
  writerElsewhere(sessionId: string): LockOwner | null {
    if (this.locks.holds(sessionId)) return null;
    const owner = liveWriter(this.sessionsDir, sessionId);
    return owner && owner.token !== this.locks.owner.token ? owner : null;
  }

  /**
   * Makes this process the chat's writer before it changes the chat. Refused, with the reason,
   * while another live process writes it; a chat nobody logs yet (brand new) needs no claim.
   */
  claim(sessionId: string): void {
    this.readUnread(sessionId);
    const log = this.logs.get(sessionId);
    if (!log || log.writer) return;
    const refused = log.claim();
    if (refused) throw new UserFacingError('busy', refused);
  }

  /**
   * Hands a request to the process that writes the chat: null when no other process does, else
   * its answer, or null in the promise when it gave none in time (it may not be running at all).
   */
  forward(sessionId: string, request: InboxRequest): Promise<InboxReply | null> | null {
    if (!this.writerElsewhere(sessionId)) return null;
    const chatDir = join(this.sessionsDir, sessionId);
    const name = sendToInbox(chatDir, { pid: process.pid, holder: this.locks.owner.holder }, request);
    return awaitReply(chatDir, name, this.options.replyTimeoutMs ?? REPLY_TIMEOUT_MS);
  }

  /** Who holds the chat's lock when it is not this process, and what can be known of it ("Take over" is offered on that). */
  chatWriter(sessionId: string): { owner: LockOwner; state: LockState } | null {
    if (this.locks.holds(sessionId)) return null;
    const held = lockHolder(this.sessionsDir, sessionId);
    if (!held || held.owner.token === this.locks.owner.token || held.state.kind === 'stale') return null;
    return held;
  }

  /**
   * The user's "Take over": this process becomes the chat's writer although its lock's holder
   * cannot be proven gone (another host's lock, an older Waypoint's). `token` names the lock the
   * user was shown. Returns the holder it was taken from (null: nobody held it any more).
   */
  takeOver(sessionId: string, token: string): LockOwner | null {
    this.readUnread(sessionId);
    const log = this.logs.get(sessionId);
    if (!log) throw new UserFacingError('not_found', 'There is no such chat.');
    if (this.readOnly.has(sessionId)) throw new UserFacingError('busy', 'This chat is damaged and opens read-only: it cannot be taken over.');
    if (log.writer) return null;
    const acquired = log.takeOver(token);
    if (!acquired.ok) {
      if (acquired.state?.kind === 'alive' && acquired.owner) {
        throw new UserFacingError('busy', `${describeOwner(acquired.owner)} is running and writes this chat: it is not taken over. Wait until it finishes (or stop it there).`);
      }
      throw new UserFacingError('busy', 'The chat\'s lock changed since you looked (another process took it). Look again before taking it over.');
    }
    return acquired.tookOverFrom;
  }

  /** Removes the chat and its folder; false when there was no such chat. */
  async deleteSession(sessionId: string): Promise<boolean> {
    this.claim(sessionId);
    const removed = this.options.chat.removeSession(sessionId);
    this.readOnly.delete(sessionId);
    this.unread.delete(sessionId);
    const log = this.logs.get(sessionId);
    this.logs.delete(sessionId);
    log?.stopWriting();
    this.deleting.add(sessionId);
    try {
      await rm(join(this.sessionsDir, sessionId), { recursive: true, force: true });
    } finally {
      this.deleting.delete(sessionId);
    }
    if (log) log.release();
    else this.locks.release(sessionId);
    await this.index.writeNow();
    return removed;
  }

  /**
   * The sidebar search: chat by chat, newest first, giving way to other work between chats (older
   * items are read from each chat's log; session-search.ts).
   */
  async search(query: string): Promise<SearchHit[]> {
    const hits: SearchHit[] = [];
    if (!query.trim()) return hits;
    for (const summary of this.options.chat.listSessions()) {
      const state = this.options.chat.sessionInMemory(summary.id);
      if (!state) {
        // A chat only listed: its log is looked through and let go, one chat at a time (memory stays bounded).
        if (this.unread.has(summary.id)) hits.push(...searchLog(summary, this.logPath(summary.id), query, this.options.keepRecent));
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      hits.push(...searchChats([{ ...searchableChat(state), summary }], query));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return hits;
  }

  /** Writes what is buffered and the index; resolves when it is on disk. */
  async flush(): Promise<void> {
    this.flushAllText();
    await Promise.all([...this.logs.values()].map((log) => log.writer?.flushed()));
    await this.index.writeNow();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.watch?.dispose();
    await this.flush();
    this.disposed = true;
    this.subscriptions.dispose();
    if (this.textTimer) clearTimeout(this.textTimer);
    for (const log of this.logs.values()) log.close();
    this.logs.clear();
    this.locks.dispose();
    this.saveStates.dispose();
  }

  private async load(): Promise<void> {
    const { chat } = this.options;
    let loaded: Awaited<ReturnType<typeof loadChats>>;
    try {
      loaded = await loadChats(this.sessionsDir, LOG_FILE, this.warn, (id) => !!this.writerElsewhere(id), this.options.keepRecent);
    } catch (error) {
      // E.g. `sessions` is a file: start with no chats rather than not at all; writes will fail and say so.
      this.loadProblem = `Waypoint cannot use its chats folder ${this.sessionsDir} (${(error as Error).message}). Chats are not saved until it is a folder Waypoint can write; move what is there away and restart.`;
      this.warn(this.loadProblem);
      loaded = { chats: [], listed: [], rebuildIndex: false };
    }
    this.adoptInOrder(loaded.chats, loaded.listed);
    // A plan asked for before its chat was used (an MCP client continuing it, the panel) reads the chat first.
    if (loaded.listed.length) this.options.plans.readWhenUnknown((id) => this.readUnread(id));
    // Following starts only now: a poll during the load would adopt a chat a second time (a
    // second writer numbering from a stale seq; found by the kill-replay test under load).
    if (this.options.follow || this.options.onRequest) this.watchLoaded();
    if (loaded.rebuildIndex) await this.index.writeNow();
    this.subscriptions.add(chat.onEvent((event) => this.onEvent(event)));
    const { runs } = this.options;
    if (runs) {
      this.subscriptions.add(runs.onUsage((record) => this.onUsage(record)));
    }
    this.subscriptions.add(chat.onHistoryChange((sessionId, event) => this.onHistory(sessionId, event)));
    this.subscriptions.add(chat.onVersionKept((sessionId, kept) => this.onVersionKept(sessionId, kept)));
    if (this.options.follow) this.watch?.add(this.sessionsDir);
  }

  private watchLoaded(): void {
    const watch = new FolderWatch(() => this.tick(), FOLLOW_POLL_MS);
    this.watch = watch;
    for (const log of this.logs.values()) {
      if (log.followed && this.options.follow) watch.add(log.tail.path);
      if (log.writer && this.options.onRequest) watch.add(inboxDir(join(this.sessionsDir, log.id)));
    }
  }

  /** Chats read and chats only listed, into the list oldest activity first (as one sorted load put them). */
  private adoptInOrder(chats: readonly LoadedChat[], listed: readonly ListedChat[]): void {
    let next = 0;
    for (const entry of chats) {
      const summary = entry.restored.session.summary;
      while (next < listed.length && byActivity(listed[next]!.summary, summary) < 0) this.listUnread(listed[next++]!);
      this.adopt(entry);
    }
    while (next < listed.length) this.listUnread(listed[next++]!);
  }

  private listUnread({ summary, entry }: ListedChat): void {
    this.unread.set(summary.id, entry);
    this.options.chat.listUnreadSession(summary, () => this.readUnread(summary.id));
  }

  /** A chat only listed whose folder another process deleted: it leaves the list unread. */
  private dropUnread(sessionId: string): void {
    this.unread.delete(sessionId);
    this.options.chat.removeSession(sessionId);
  }

  /** Reads a chat that was only listed from its log, as a start would have (repaired if it must be), and adopts it. */
  private readUnread(sessionId: string): void {
    if (!this.unread.delete(sessionId)) return;
    const entry = loadChat(this.logPath(sessionId), sessionId, this.warn, !!this.writerElsewhere(sessionId), this.options.keepRecent);
    if (entry) this.adopt(entry);
    else this.options.chat.removeSession(sessionId);
  }

  /**
   * The chat index as this process knows it: a chat in memory is stamped with its log only when
   * the log holds exactly what the chat shows (every byte this process read or wrote, nothing
   * more, nothing waiting), else the next start reads its log; a chat only listed keeps its entry.
   */
  private indexNow(): ReturnType<typeof chatIndexOf> {
    const chats: IndexedChat[] = [];
    for (const summary of this.options.chat.listSessions()) {
      const listed = this.unread.get(summary.id);
      if (listed) {
        chats.push({ summary, entry: listed });
        continue;
      }
      const state = this.options.chat.sessionInMemory(summary.id);
      const log = this.logs.get(summary.id);
      const stamp = stampOf(this.logPath(summary.id));
      const known = log?.writer ? log.writer.endOffset : log?.tail.offset;
      const vouched = state && log && stamp && !this.readOnly.has(summary.id) && !log.writer?.failing && known === stamp.size;
      chats.push({
        summary,
        entry: vouched ? { size: stamp.size, mtimeMs: stamp.mtimeMs, runStatus: log.lastRunStatus, pending: hasPendingPrompt(state) || planAsks(state), items: state.itemCount } : untrustedEntry(stamp),
      });
    }
    return chatIndexOf(chats);
  }

  /** Puts a chat read from its log into the services; an interrupted run is closed (and that logged). */
  private adopt(entry: LoadedChat): void {
    const { chat, plans } = this.options;
    // One ChatLog (and so at most one writer) per chat, whoever found it first.
    if (this.logs.has(entry.id)) return;
    chat.adoptSession(entry.restored.session);
    if (entry.plan) plans.restore(entry.id, entry.plan);
    if (entry.damaged) {
      // Shown read-only with what could be read; its log is left exactly as it is.
      this.readOnly.add(entry.id);
      return;
    }
    const log = this.newLog(entry.id, new LogTail(this.logPath(entry.id), entry.intactBytes, entry.nextSeq - 1));
    log.lastRunStatus = entry.runStatus;
    log.lastSummaryJson = entry.summaryJson;
    log.followed = entry.writtenElsewhere;
    if (log.followed && this.options.follow) this.watch?.add(log.tail.path);
    if (entry.restored.fixedItems.length || entry.restored.historyRepairs.length || entry.restored.fixedAgents.length) this.logRepair(log, entry.restored, entry.restored.session.summary);
  }

  /** Closing an interrupted run is itself logged, so the next start sees a consistent chat. */
  private logRepair(log: ChatLog, { fixedItems, historyRepairs, fixedAgents }: RestoredChat, summary: SessionSummary): void {
    // The closed calls' results first, as they were made (replay then finds the history whole).
    for (const change of historyRepairs) this.writeHistory(log, change);
    for (const item of fixedItems) this.write(log, { type: 'item', item });
    for (const agent of fixedAgents) this.write(log, { type: 'subagent', agent });
    this.write(log, { type: 'run', state: { status: 'idle' } });
    // The log now ends idle: the next run must be logged as running, or a second kill is never repaired.
    log.lastRunStatus = 'idle';
    this.writeSummary(log, summary);
  }

  private newLog(sessionId: string, tail: LogTail): ChatLog {
    const log = new ChatLog(sessionId, tail, () => pagedItemsOf(this.options.chat.sessionState(sessionId)), this.logHost);
    this.logs.set(sessionId, log);
    // Items whose records are in this log may leave memory and be read back from it.
    pagedItemsOf(this.options.chat.sessionState(sessionId))?.attach(tail.path, this.options.keepRecent);
    return log;
  }

  private onEvent(event: WaypointEvent): void {
    if (this.mirroring) return;
    if (event.type === 'session_deleted' || event.type === 'settings_updated' || event.type === 'mcp_state' || event.type === 'error') return;
    const sessionId = event.type === 'session_updated' ? event.session.id : event.sessionId;
    if (this.readOnly.has(sessionId)) return;
    let log = this.logs.get(sessionId);
    if (!log) {
      const state = this.options.chat.sessionState(sessionId);
      if (event.type !== 'session_updated' || !state) return;
      // A chat this process just created: its lock is free (its id is new).
      log = this.newLog(sessionId, new LogTail(this.logPath(sessionId), 0, -1));
      this.write(log, { type: 'created', session: event.session });
      log.lastSummaryJson = JSON.stringify(event.session);
      this.index.schedule();
      return;
    }
    switch (event.type) {
      case 'message_delta':
        log.bufferText(event.itemId, event.text);
        this.scheduleText();
        return;
      case 'transcript_item': {
        this.write(log, { type: 'item', item: event.item });
        // A call cut off by Stop added itself to the summary's interruptedCalls: keep that too.
        const summary = event.item.kind === 'tool_call' && event.item.interrupted ? this.options.chat.sessionState(sessionId)?.summary : undefined;
        if (summary) this.writeSummary(log, summary);
        return;
      }
      case 'run_state':
        // A phase of the same run is not logged (the history changes are, as they happen).
        if (event.state.status !== log.lastRunStatus) {
          log.lastRunStatus = event.state.status;
          this.write(log, { type: 'run', state: event.state });
          // The index lists run states: a start then knows which chats have a run to close.
          this.index.schedule();
        }
        return;
      case 'session_updated':
        this.writeSummary(log, event.session);
        return;
      case 'plan_updated': {
        this.write(log, { type: 'plan', version: event.plan.version, plan: event.plan, change: event.change });
        // The sidebar's progress moved with it: keep the summary (and the chat index) in step. The
        // reader derives that progress from the plan record itself, so the summary is logged only
        // when it changed in more (a plan update with a change: followers mirror those as events).
        const summary = this.options.chat.sessionState(sessionId)?.summary;
        if (summary) this.writeSummary(log, summary, event.change ? event.plan : undefined);
        return;
      }
      case 'approval_requested':
      case 'approval_resolved':
      case 'escalation_requested':
      case 'escalation_resolved':
      case 'question_requested':
      case 'question_resolved':
        this.write(log, { type: 'prompt', event: event as never });
        this.index.schedule();
        return;
      case 'subagent_updated':
        this.write(log, { type: 'subagent', agent: event.subagent });
        return;
      case 'subagent_waiting':
        this.write(log, { type: 'subagent_waiting', waiting: event.waiting });
        return;
      case 'subagent_line':
        this.write(log, { type: 'subagent_line', agentId: event.agentId, line: event.line });
        return;
      case 'chat_rewound':
        // The cut history was logged when it was made (before this), so replay cuts the items after it.
        this.write(log, { type: 'rewind', itemId: event.fromItemId, planDropped: event.planDropped });
        return;
      default:
        return;
    }
  }

  /** A change to a chat's API history, logged as it is made; one read from the log is there already. */
  private onHistory(sessionId: string, { change, origin }: HistoryEvent): void {
    if (origin === 'log' || this.mirroring || this.readOnly.has(sessionId)) return;
    const log = this.logs.get(sessionId);
    if (log) this.writeHistory(log, change);
  }

  /** A version kept beside the one shown, logged before the events that show another (replay keeps it first). */
  private onVersionKept(sessionId: string, kept: KeptVersion): void {
    if (this.mirroring || this.readOnly.has(sessionId)) return;
    const log = this.logs.get(sessionId);
    if (log) this.write(log, { type: 'version', ...kept, history: kept.history as never });
  }

  private writeHistory(log: ChatLog, change: HistoryChange): void {
    this.write(log, { type: 'history', from: change.from, ...(change.keep !== undefined ? { keep: change.keep } : {}), messages: change.messages as never });
  }

  private onUsage(record: UsageRecord): void {
    const log = this.logs.get(record.sessionId);
    if (log) this.write(log, { type: 'usage', model: record.model, usage: record.usage, step: record.step, planId: record.planId ?? null });
  }

  /**
   * Logs the chat's summary when it differs from the one its log reads as (`lastSummaryJson`).
   * `afterPlan`: a plan record was just written, and the reader derives the summary's progress
   * from it (replay.ts): the summary that gives is not written again (issue 24: one record less
   * for each planning call that moves the progress).
   */
  private writeSummary(log: ChatLog, session: SessionSummary, afterPlan?: Plan): void {
    const json = JSON.stringify(session);
    if (json === log.lastSummaryJson) return;
    const derived = afterPlan && log.lastSummaryJson ? JSON.stringify(withPlanProgress(JSON.parse(log.lastSummaryJson) as SessionSummary, afterPlan)) : null;
    log.lastSummaryJson = json;
    if (json !== derived) this.write(log, { type: 'summary', session });
    this.index.schedule();
  }

  /** Every record goes after the text streamed before it. */
  private write(log: ChatLog, entry: LogEntry): void {
    log.write(entry);
    this.scheduleRelease(log);
  }

  private flushAllText(): void {
    for (const log of this.logs.values()) log.flush();
  }

  private scheduleText(): void {
    if (this.textTimer) return;
    this.textTimer = setTimeout(() => {
      this.textTimer = null;
      this.flushAllText();
    }, TEXT_FLUSH_MS);
    this.textTimer.unref?.();
  }

  /**
   * The chat's log was changed behind its writer (by hand, by a tool): the log is left as it is
   * now and the chat goes read-only, as a damaged chat at load does. What the chat holds in memory
   * is what it was; its history is never read back from the changed file for a request.
   */
  private changedElsewhere(sessionId: string, what: string): void {
    const log = this.logs.get(sessionId);
    if (log) {
      // Out of the logs, like a chat damaged at load: never claimed, followed or written again here.
      this.logs.delete(sessionId);
      log.close();
      this.watch?.remove(log.tail.path);
      this.watch?.remove(inboxDir(join(this.sessionsDir, sessionId)));
      log.release();
    }
    this.readOnly.add(sessionId);
    const reason = `its log was changed outside Waypoint while this chat was open (${what})`;
    this.warn(`${this.logPath(sessionId)}: ${reason}; it is not written any more and the chat is read-only.`);
    const state = this.options.chat.sessionState(sessionId);
    if (state && !state.summary.damaged) this.emitMirrored(sessionId, { type: 'session_updated', session: { ...state.summary, damaged: reason } });
    this.index.schedule();
  }

  private newWriter(sessionId: string, nextSeq: number, startsAt: number): ChatLogWriter {
    return new ChatLogWriter(this.logPath(sessionId), nextSeq, {
      ...(this.options.fs ? { fs: this.options.fs } : {}),
      startsAt,
      onForeignChange: (what) => queueMicrotask(() => this.changedElsewhere(sessionId, what)),
      ...(this.options.retryMs !== undefined ? { retryMs: this.options.retryMs } : {}),
      onFault: (error) => {
        this.warn(`could not write the log of chat ${sessionId} (${error.code ?? error.message}); its records wait in memory and are retried`);
        this.saveStates.fire({ sessionId, status: 'failing', error });
      },
      onRecovered: () => {
        this.warn(`the log of chat ${sessionId} is written again`);
        this.saveStates.fire({ sessionId, status: 'saved' });
      },
    });
  }

  /** The shells give an idle chat back, so another process (a restarted MCP server) may write it. */
  private scheduleRelease(log: ChatLog): void {
    const ms = this.options.releaseIdleMs;
    if (ms === undefined || !log.writer) return;
    log.cancelRelease();
    log.releaseTimer = setTimeout(() => {
      log.releaseTimer = null;
      const state = this.options.chat.sessionState(log.id);
      // A log whose records still wait in memory (a full disk) is kept until they are written.
      if (!log.writer || log.writer.failing || log.lastRunStatus !== 'idle' || state?.pendingApproval || state?.pendingEscalation) {
        if (log.writer?.failing) this.scheduleRelease(log);
        return;
      }
      log.release();
    }, ms);
    log.releaseTimer.unref?.();
  }

  /** An event this process did not cause: announced (the window shows it), never logged again. */
  private emitMirrored(sessionId: string, event: WaypointEvent): void {
    this.mirroring = true;
    try {
      this.options.chat.mirror(sessionId, event);
    } finally {
      this.mirroring = false;
    }
  }

  /** One look at the folder: new and deleted chats, appends by other writers, requests for ours. */
  private tick(): void {
    if (this.disposed) return;
    for (const log of [...this.logs.values()]) log.lockLost();
    if (this.options.follow) this.follower.followFolder();
    if (this.options.onRequest) this.takeRequests(this.options.onRequest);
  }

  /** Another process deleted the chat. */
  private forget(log: ChatLog): void {
    this.logs.delete(log.id);
    this.watch?.remove(log.tail.path);
    this.options.chat.removeSession(log.id);
  }

  /**
   * The process running this chat died mid-run (its lock is stale): take the chat over and close
   * the run as a restart would, so the window offers Resume instead of a run nobody is doing.
   */
  private repairAbandoned(log: ChatLog): void {
    // The claim closes the run (ChatLog.claim → closeLeftRun).
    if (log.claim(true)) return;
    if (log.lastRunStatus === 'idle') return;
    // Paused on a question: nothing to close; the question waits for whoever answers it.
    log.release();
  }

  /**
   * Closes a run another process left open in the chat's log (this process writes it now), as a
   * restart does: read from the log, repaired, adopted, and the repair logged. Nothing happens
   * to a run paused on a question (it waits for an answer).
   */
  private closeLeftRun(log: ChatLog): void {
    // Results for the calls a kill left open come with it: logRepair logs them first.
    const restored = closedLeftRun(log.tail.path, this.options.keepRecent);
    if (!restored) return;
    this.options.chat.adoptSession(restored.session);
    this.logRepair(log, restored, restored.session.summary);
    for (const item of restored.fixedItems) this.emitMirrored(log.id, { type: 'transcript_item', sessionId: log.id, item });
    for (const agent of restored.fixedAgents) this.emitMirrored(log.id, { type: 'subagent_updated', sessionId: log.id, subagent: agent });
    this.emitMirrored(log.id, { type: 'run_state', sessionId: log.id, state: { status: 'idle' } });
    this.emitMirrored(log.id, { type: 'session_updated', session: restored.session.summary });
  }

  private takeRequests(onRequest: NonNullable<ChatLogsOptions['onRequest']>): void {
    const writing = [...this.logs.values()].filter((log) => log.writer).map((log) => log.id);
    dispatchInbox(this.sessionsDir, writing, onRequest, this.warn);
  }
}

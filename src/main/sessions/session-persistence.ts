import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { WaypointEvent } from '../../shared/contract';
import type { SessionSummary } from '../../shared/transcript';
import type { UsageRecord } from '../agent/usage-meter';
import { DisposableStore, type Disposable } from '../common/emitter';
import type { PlanUpdate } from '../plan/plan-service.types';
import type { ChatHost, PlanHost } from './persistence-ports';
import { HistorySync } from './history-sync';
import { loadSessions } from './load-sessions';
import type { LogEntry } from './log-records';
import { SessionLogWriter } from './log-writer';
import { searchChats, type SearchHit } from './session-search';
import { IndexWriter } from './session-index';

export const SESSIONS_DIR = 'sessions';
export const LOG_FILE = 'events.jsonl';
/** Streamed text is written at most this often (and before any other record of the chat). */
const TEXT_FLUSH_MS = 200;

interface ChatLog {
  id: string;
  writer: SessionLogWriter;
  history: HistorySync;
  pendingText: Map<string, string>;
  lastRunStatus: string;
  lastSummaryJson: string;
}

export interface PersistenceOptions {
  dataDir: string;
  chat: ChatHost;
  plans: PlanHost;
  warn?: (message: string) => void;
}

/**
 * Persists every chat as an append-only event log and brings them all back on start. It only
 * listens: the chat and plan services own the state and fire events; this writes them down in
 * order, one writer per chat (see log-writer.ts for the fsync policy).
 */
export class SessionPersistence implements Disposable {
  private readonly logs = new Map<string, ChatLog>();
  private readonly subscriptions = new DisposableStore();
  private readonly index: IndexWriter;
  private textTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly warn: (message: string) => void;
  private disposed = false;

  private constructor(
    private readonly options: PersistenceOptions,
    readonly sessionsDir: string,
  ) {
    this.warn = options.warn ?? ((message) => console.warn(`[waypoint] ${message}`));
    this.index = new IndexWriter(sessionsDir, () => options.chat.listSessions());
  }

  /** Loads every chat from disk into the chat and plan services, then starts logging. */
  static async open(options: PersistenceOptions): Promise<SessionPersistence> {
    const persistence = new SessionPersistence(options, join(options.dataDir, SESSIONS_DIR));
    await persistence.load();
    return persistence;
  }

  logPath(sessionId: string): string {
    return join(this.sessionsDir, sessionId, LOG_FILE);
  }

  renameSession(sessionId: string, title: string): SessionSummary {
    return this.options.chat.renameSession(sessionId, title);
  }

  /** Removes the chat and its folder; false when there was no such chat. */
  async deleteSession(sessionId: string): Promise<boolean> {
    const removed = this.options.chat.removeSession(sessionId);
    const log = this.logs.get(sessionId);
    this.logs.delete(sessionId);
    log?.writer.close();
    if (log) await log.writer.flushed();
    await rm(join(this.sessionsDir, sessionId), { recursive: true, force: true });
    await this.index.writeNow();
    return removed;
  }

  search(query: string): SearchHit[] {
    const chats = this.options.chat.listSessions().flatMap((summary) => {
      const state = this.options.chat.sessionState(summary.id);
      return state ? [{ summary, transcript: state.transcript }] : [];
    });
    return searchChats(chats, query);
  }

  /** Writes what is buffered and the index; resolves when it is on disk. */
  async flush(): Promise<void> {
    this.flushAllText();
    await Promise.all([...this.logs.values()].map((log) => log.writer.flushed()));
    await this.index.writeNow();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.flush();
    this.disposed = true;
    this.subscriptions.dispose();
    if (this.textTimer) clearTimeout(this.textTimer);
    for (const log of this.logs.values()) log.writer.close();
    this.logs.clear();
  }

  private async load(): Promise<void> {
    const { chat, plans } = this.options;
    const loaded = await loadSessions(this.sessionsDir, LOG_FILE, this.warn);
    for (const entry of loaded.chats) {
      chat.adoptSession(entry.restored.session);
      if (entry.plan) plans.restore(entry.id, entry.plan);
      const log = this.newLog(entry.id, new SessionLogWriter(this.logPath(entry.id), entry.nextSeq), entry.history);
      log.lastRunStatus = entry.runStatus;
      log.lastSummaryJson = entry.summaryJson;
      if (entry.restored.fixedItems.length) {
        // Closing an interrupted run is itself logged, so the next start sees a consistent chat.
        for (const item of entry.restored.fixedItems) this.write(entry.id, log, { type: 'item', item });
        this.write(entry.id, log, { type: 'run', state: { status: 'idle' } });
        this.writeSummary(entry.id, log, entry.restored.session.summary);
      }
    }
    if (loaded.rebuildIndex) await this.index.writeNow();
    this.subscriptions.add(chat.onEvent((event) => this.onEvent(event)));
    this.subscriptions.add(plans.onPlanUpdated((update) => this.onPlan(update)));
    this.subscriptions.add(chat.onUsage((record) => this.onUsage(record)));
  }

  private newLog(sessionId: string, writer: SessionLogWriter, history: HistorySync): ChatLog {
    const log: ChatLog = { id: sessionId, writer, history, pendingText: new Map(), lastRunStatus: 'idle', lastSummaryJson: '' };
    this.logs.set(sessionId, log);
    return log;
  }

  private onEvent(event: WaypointEvent): void {
    if (event.type === 'session_deleted' || event.type === 'settings_updated' || event.type === 'mcp_state' || event.type === 'error') return;
    const sessionId = event.type === 'session_updated' ? event.session.id : event.sessionId;
    let log = this.logs.get(sessionId);
    if (!log) {
      const state = this.options.chat.sessionState(sessionId);
      if (event.type !== 'session_updated' || !state) return;
      log = this.newLog(sessionId, new SessionLogWriter(this.logPath(sessionId)), new HistorySync([]));
      this.write(sessionId, log, { type: 'created', session: event.session });
      log.lastSummaryJson = JSON.stringify(event.session);
      this.index.schedule();
      return;
    }
    switch (event.type) {
      case 'message_delta':
        log.pendingText.set(event.itemId, (log.pendingText.get(event.itemId) ?? '') + event.text);
        this.scheduleText();
        return;
      case 'transcript_item':
        this.write(sessionId, log, { type: 'item', item: event.item });
        return;
      case 'run_state':
        if (event.state.status !== log.lastRunStatus) {
          log.lastRunStatus = event.state.status;
          this.write(sessionId, log, { type: 'run', state: event.state });
        } else {
          this.syncHistory(log); // tool results join the history just before the next request
        }
        return;
      case 'session_updated':
        this.writeSummary(sessionId, log, event.session);
        return;
      case 'approval_requested':
      case 'approval_resolved':
      case 'escalation_requested':
      case 'escalation_resolved':
        this.write(sessionId, log, { type: 'prompt', event: event as never });
        return;
      default:
        this.syncHistory(log);
    }
  }

  private onPlan(update: PlanUpdate): void {
    const log = this.logs.get(update.sessionId);
    if (log) this.write(update.sessionId, log, { type: 'plan', version: update.version, plan: update.plan });
  }

  private onUsage(record: UsageRecord): void {
    const log = this.logs.get(record.sessionId);
    if (log) this.write(record.sessionId, log, { type: 'usage', model: record.model, usage: record.usage, step: record.step });
  }

  private writeSummary(sessionId: string, log: ChatLog, session: SessionSummary): void {
    const json = JSON.stringify(session);
    if (json === log.lastSummaryJson) return;
    log.lastSummaryJson = json;
    this.write(sessionId, log, { type: 'summary', session });
    this.index.schedule();
  }

  /** Every record goes after the text streamed before it and the history changes that preceded it. */
  private write(sessionId: string, log: ChatLog, entry: LogEntry): void {
    try {
      if (entry.type !== 'created') {
        this.flushText(log);
        this.syncHistory(log);
      }
      log.writer.append(entry);
    } catch (error) {
      this.warn(`could not write to the log of chat ${sessionId}: ${(error as Error).message}`);
    }
  }

  private syncHistory(log: ChatLog): void {
    const state = this.options.chat.sessionState(log.id);
    if (!state) return;
    const change = log.history.diff(state.history);
    if (change) log.writer.append({ type: 'history', from: change.from, messages: change.messages as never });
  }

  private flushText(log: ChatLog): void {
    for (const [itemId, text] of log.pendingText) log.writer.append({ type: 'text', itemId, text });
    log.pendingText.clear();
  }

  private flushAllText(): void {
    for (const log of this.logs.values()) this.flushText(log);
  }

  private scheduleText(): void {
    if (this.textTimer) return;
    this.textTimer = setTimeout(() => {
      this.textTimer = null;
      this.flushAllText();
    }, TEXT_FLUSH_MS);
    this.textTimer.unref?.();
  }
}

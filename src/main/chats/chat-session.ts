import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { withLine, withSnapshot, type SubAgent, type SubAgentWaiting } from '../../shared/subagents';
import { planChangeItems, planProgress } from '../../shared/plan-change';
import { callKey } from '../../shared/tool-results';
import type { ApprovalRequest, EscalationRequest, QuestionRequest } from '../../shared/prompts';
import type { CompactionItem, HistoryMark, RunState, SessionSummary, ToolCallItem, TranscriptItem } from '../../shared/transcript';
import { Emitter } from '../common/emitter';
import { appendAssistant, appendUser, closeOpenToolUses } from './api-history';
import type { ChatItems } from './chat-items';
import { versionKey, type KeptVersion } from './chat-versions';
import { applyHistoryChange, type HistoryChange } from './history-change';
import { cutHistory } from './history-cut';

/**
 * A change to a chat's API history. `origin` 'chat': made in this process (the log records it);
 * 'log': read from the chat's log, which holds it already (another process wrote it).
 */
export interface HistoryEvent {
  change: HistoryChange & { messages: MessageParam[] };
  origin: 'chat' | 'log';
}

/**
 * Everything one chat holds, in one object: its summary, the transcript the user sees, the API
 * history Claude sees, and the run state. The transcript side changes only through `apply`
 * (the same events subscribers get), so a later event log can rebuild it by replaying them.
 */
export class ChatSession {
  summary: SessionSummary;
  runState: RunState = { status: 'idle' };
  /** The approval the chat awaits (the run that asked has ended): a reloaded page asks again. */
  pendingApproval: ApprovalRequest | null = null;
  /** The escalation the chat awaits an answer to: a plain object, so a restored session can be answered. */
  pendingEscalation: EscalationRequest | null = null;
  /** Claude's question (ask_user) the chat awaits an answer to; like the others it is restored from the log. */
  pendingQuestion: QuestionRequest | null = null;
  /** The chat's plan as of the last plan_updated: its next change's transcript line is derived against it. */
  plan: Plan | null = null;
  /**
   * The latest compaction: requests carry its summary instead of the messages before its cut
   * (agent/context-view.ts). The history keeps them all; the log replays this from the item.
   */
  compaction: CompactionItem | null = null;
  /** The chat's sub-agents by id, in the order they started; a later snapshot replaces the earlier (subagent_updated). */
  readonly subagents = new Map<string, SubAgent>();
  /** Sub-agents that asked the user, by id: what an answer needs to run one on (the latest ask of each). */
  readonly waitingAgents = new Map<string, SubAgentWaiting>();

  /** The versions not shown, by versionKey (chat-versions.ts). */
  private readonly versions = new Map<string, KeptVersion>();
  private readonly versionsKept = new Emitter<KeptVersion>();
  /** Every version kept in this process, as it is kept (the log records it). */
  readonly onVersionKept = this.versionsKept.event;
  private loadedHistory: MessageParam[] | null = [];
  private readHistory: (() => MessageParam[]) | null = null;
  private readonly historyChanges = new Emitter<HistoryEvent>();
  /** Every change to the API history, as it is made: the history changes only through the methods below. */
  readonly onHistoryChange = this.historyChanges.event;

  /**
   * `items`: where the transcript is kept (a port the store implements: store/paging/paged-items.ts);
   * empty for a new chat, replayed from the chat's log for a loaded one.
   */
  constructor(
    summary: SessionSummary,
    readonly items: ChatItems,
  ) {
    this.summary = summary;
  }

  /**
   * The Messages API history; kept valid (alternating roles, every tool_use answered). A chat
   * loaded from its log reads it back from there on first use (deferHistory), then holds it.
   * Read-only: it changes through the methods below, each announced (onHistoryChange).
   */
  get history(): readonly MessageParam[] {
    return this.heldHistory();
  }

  private heldHistory(): MessageParam[] {
    if (!this.loadedHistory) {
      this.loadedHistory = this.readHistory!();
      this.readHistory = null;
    }
    return this.loadedHistory;
  }

  /** Adds user content, merging into a trailing user message (api-history.ts). */
  appendUser(blocks: ContentBlockParam[]): void {
    this.changeTail((history) => appendUser(history, blocks));
  }

  /** Adds an assistant turn, merging into a trailing assistant message (api-history.ts). */
  appendAssistant(blocks: ContentBlockParam[]): void {
    this.changeTail((history) => appendAssistant(history, blocks));
  }

  /** A changing call cut off with its effect unknown: the same call again asks first (approval-step.ts); the newest 100 are kept. */
  private noteInterrupted(key: string): void {
    const held = this.summary.interruptedCalls ?? [];
    if (held.includes(key)) return;
    this.summary = { ...this.summary, interruptedCalls: [...held, key].slice(-100) };
  }

  /** Answers every open tool_use with an is_error result (api-history.ts). */
  closeOpenToolUses(reason: string): void {
    this.changeTail((history) => closeOpenToolUses(history, reason));
  }

  /** Drops the history from `mark` on (history-cut.ts): an edited message replaces what followed it. */
  cutHistory(mark: HistoryMark): void {
    const history = this.heldHistory();
    if (!history[mark.message]) return;
    cutHistory(history, mark);
    this.announce({ from: mark.message, messages: history.slice(mark.message) }, 'chat');
  }

  /**
   * The history as its log holds it, before anything listens (a chat restored or copied): not
   * announced, since it is what is there already (a copy's new log is written whole).
   */
  restoreHistory(messages: readonly MessageParam[]): void {
    this.heldHistory().push(...messages);
  }

  /** A change read from the chat's log (another process made it); false when it does not fit. */
  applyLoggedHistory(change: HistoryChange): boolean {
    if (!applyHistoryChange(this.heldHistory(), change)) return false;
    this.announce({ ...change, messages: change.messages as MessageParam[] }, 'log');
    return true;
  }

  /**
   * The edits of api-history.ts only add at the end: a new message, or blocks after the last
   * message's (a new content array). What they added is the change, told as such (`keep`: the
   * blocks of the last message that stay), so the log grows by what was added, never by a copy.
   */
  private changeTail(edit: (history: MessageParam[]) => void): void {
    const history = this.heldHistory();
    const length = history.length;
    const last = history[length - 1];
    const lastContent = last?.content;
    edit(history);
    if (history.length > length) {
      this.announce({ from: length, messages: history.slice(length) }, 'chat');
    } else if (last && last.content !== lastContent) {
      const keep = typeof lastContent === 'string' ? 1 : lastContent!.length;
      this.announce({ from: length - 1, keep, messages: [{ role: last.role, content: (last.content as ContentBlockParam[]).slice(keep) } as MessageParam] }, 'chat');
    }
  }

  private announce(change: HistoryChange & { messages: MessageParam[] }, origin: HistoryEvent['origin']): void {
    // A copy: the history goes on changing while a listener (the log's writer) may still hold it.
    this.historyChanges.fire({ change: origin === 'chat' ? structuredClone(change) : change, origin });
  }

  /**
   * Another version of a message is kept (chat-versions.ts): 'chat', kept in this process (the
   * log records it); 'log', read from the chat's log.
   */
  keepVersion(kept: KeptVersion, origin: 'chat' | 'log' = 'chat'): void {
    this.versions.set(versionKey(kept.group, kept.index), kept);
    if (origin === 'chat') this.versionsKept.fire(structuredClone(kept));
  }

  /** A version kept beside the one shown, or undefined. */
  keptVersion(group: string, index: number): KeptVersion | undefined {
    return this.versions.get(versionKey(group, index));
  }

  /**
   * The history from message `from` on becomes `messages` (another version shown): one change,
   * announced, so the log records it as it records an append.
   */
  replaceHistoryFrom(from: number, messages: readonly MessageParam[]): void {
    const history = this.heldHistory();
    if (from > history.length) throw new Error(`the history has ${history.length} messages; a version cannot start at ${from}`);
    history.splice(from, Infinity, ...structuredClone([...messages]));
    this.announce({ from, messages: history.slice(from) }, 'chat');
  }

  /** False while the history is only in the chat's log (nothing can have changed it). */
  get historyInMemory(): boolean {
    return this.loadedHistory !== null;
  }

  /**
   * Lets the history go until it is used: `read` gives it back from the log. A chat nobody runs,
   * edits or compacts in this process holds no history (issue 15: main's memory with many chats).
   */
  deferHistory(read: () => MessageParam[]): void {
    this.loadedHistory = null;
    this.readHistory = read;
  }

  /**
   * The whole transcript, in order (a copy). Older items are read back from the chat's log, so
   * this is for whole-chat work (export, fork); prefer `itemsBetween` or the lookups below.
   */
  get transcript(): TranscriptItem[] {
    return this.items.values();
  }

  item(id: string): TranscriptItem | undefined {
    return this.items.get(id);
  }

  /** How many items the transcript holds. */
  get itemCount(): number {
    return this.items.size;
  }

  /** The item's position in the transcript, or -1. */
  indexOf(id: string): number {
    return this.items.indexOf(id);
  }

  /** Items [start, end) of the transcript, in order: a page without copying the whole chat. */
  itemsBetween(start: number, end?: number): TranscriptItem[] {
    return this.items.slice(start, end);
  }

  /** The kind of the item at a position, without reading it. */
  kindAt(index: number): TranscriptItem['kind'] | undefined {
    return this.items.kindAt(index);
  }

  /** The id of the item at a position, without reading it. */
  idAt(index: number): string | undefined {
    return this.items.idAt(index);
  }

  /** How many items of a kind the transcript holds, without reading any. */
  countOf(kind: TranscriptItem['kind']): number {
    return this.items.countOf(kind);
  }

  /** Every item of a kind, in order (plan lines and completion cards are always in memory). */
  itemsOfKind<K extends TranscriptItem['kind']>(kind: K): Array<Extract<TranscriptItem, { kind: K }>> {
    return this.items.ofKind(kind) as Array<Extract<TranscriptItem, { kind: K }>>;
  }

  /** The card of a tool call, by its tool_use id. */
  toolCall(toolUseId: string): ToolCallItem | undefined {
    return this.items.toolCall(toolUseId);
  }

  /** Items held in memory now (the rest are read from the log when asked for). */
  get residentItems(): number {
    return this.items.resident;
  }

  /** Folds one event into the state; events for other sessions are ignored. */
  apply(event: WaypointEvent): void {
    switch (event.type) {
      case 'transcript_item':
        if (event.sessionId !== this.summary.id) return;
        this.items.set(event.item);
        if (event.item.kind === 'compaction') this.compaction = event.item;
        if (event.item.kind === 'tool_call' && event.item.interrupted) this.noteInterrupted(callKey(event.item.name, event.item.input));
        return;
      case 'message_delta':
        if (event.sessionId === this.summary.id) this.items.appendText(event.itemId, event.text);
        return;
      case 'run_state':
        if (event.sessionId !== this.summary.id) return;
        // A run's items stay in memory while it updates them.
        if (event.state.status === 'idle') this.items.unpin();
        else if (this.runState.status === 'idle') this.items.pin(this.items.size);
        this.runState = event.state;
        return;
      case 'approval_requested':
        if (event.sessionId === this.summary.id) this.pendingApproval = event.request;
        return;
      case 'approval_resolved':
        if (event.sessionId === this.summary.id && this.pendingApproval?.id === event.requestId) this.pendingApproval = null;
        return;
      case 'escalation_requested':
        if (event.sessionId === this.summary.id) this.pendingEscalation = event.request;
        return;
      case 'escalation_resolved':
        if (event.sessionId === this.summary.id && this.pendingEscalation?.id === event.requestId) this.pendingEscalation = null;
        return;
      case 'question_requested':
        if (event.sessionId === this.summary.id) this.pendingQuestion = event.request;
        return;
      case 'question_resolved':
        if (event.sessionId === this.summary.id && this.pendingQuestion?.id === event.requestId) this.pendingQuestion = null;
        return;
      case 'chat_rewound':
        if (event.sessionId !== this.summary.id) return;
        this.items.cutFrom(event.fromItemId);
        // A compaction made in the cut part no longer speaks for the history (another version's items may bring theirs).
        if (this.compaction && this.items.indexOf(this.compaction.id) < 0) this.compaction = this.itemsOfKind('compaction').at(-1) ?? null;
        if (event.planDropped) {
          this.plan = null;
          this.summary = withoutPlanProgress(this.summary);
        }
        return;
      case 'session_updated':
        if (event.session.id === this.summary.id) this.summary = event.session;
        return;
      case 'subagent_updated':
        if (event.sessionId === this.summary.id) this.subagents.set(event.subagent.id, withSnapshot(this.subagents.get(event.subagent.id), event.subagent));
        return;
      case 'subagent_waiting':
        if (event.sessionId === this.summary.id) this.waitingAgents.set(event.waiting.agentId, event.waiting);
        return;
      case 'subagent_line': {
        const agent = event.sessionId === this.summary.id ? this.subagents.get(event.agentId) : undefined;
        if (agent) this.subagents.set(agent.id, { ...agent, transcript: withLine(agent.transcript, event.line) });
        return;
      }
      case 'plan_updated':
        if (event.sessionId !== this.summary.id) return;
        for (const item of planChangeItems(this.plan, event)) this.items.set(item);
        this.plan = event.plan;
        this.summary = withPlanProgress(this.summary, event.plan);
        return;
      default:
        return;
    }
  }
}

/**
 * The chat's summary once `plan` is its plan: the sidebar's progress follows the plan. The log's
 * reader derives it from a plan record the same way (replay.ts), so a summary that changed only
 * by this is not logged again (chat-logs.ts).
 */
export function withPlanProgress(summary: SessionSummary, plan: Plan): SessionSummary {
  return { ...summary, planProgress: planProgress(plan, summary.planProgress) };
}

export function withoutPlanProgress(summary: SessionSummary): SessionSummary {
  const { planProgress: _dropped, ...rest } = summary;
  return rest;
}

/** The chat's title: its first message on one line, cut at a word near 60 characters. */
export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= 60) return line || 'New chat';
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Newest activity first; among equal times, the later-created chat first. */
export function newestFirst(summaries: SessionSummary[]): SessionSummary[] {
  // Ties (chats changed in the same millisecond) go by creation, then id: never by the order chats
  // happened to be read in, so the list written to the chat index and one rebuilt from the logs agree.
  const key = (s: SessionSummary) => [s.updatedAt, s.createdAt, s.id] as const;
  return [...summaries].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? 1 : -1;
    return 0;
  });
}

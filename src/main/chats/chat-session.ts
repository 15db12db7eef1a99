import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { planChangeItems, planProgress } from '../../shared/plan-change';
import type { ApprovalRequest, EscalationRequest, QuestionRequest } from '../../shared/prompts';
import type { CompactionItem, RunState, SessionSummary, ToolCallItem, TranscriptItem } from '../../shared/transcript';
import type { ChatItems } from './chat-items';

/**
 * Everything one chat holds, in one object: its summary, the transcript the user sees, the API
 * history Claude sees, and the run state. The transcript side changes only through `apply`
 * (the same events subscribers get), so a later event log can rebuild it by replaying them.
 */
export class ChatSession {
  summary: SessionSummary;
  runState: RunState = { status: 'idle' };
  /** The approval the run waits for: a reloaded page asks again. */
  pendingApproval: ApprovalRequest | null = null;
  /** The escalation the run is paused on: a plain object, so a restored session can be answered. */
  pendingEscalation: EscalationRequest | null = null;
  /** Claude's question (ask_user) the run waits on; like the others it is restored from the log. */
  pendingQuestion: QuestionRequest | null = null;
  /** The chat's plan as of the last plan_updated: its next change's transcript line is derived against it. */
  plan: Plan | null = null;
  /**
   * The latest compaction: requests carry its summary instead of the messages before its cut
   * (agent/context-view.ts). The history keeps them all; the log replays this from the item.
   */
  compaction: CompactionItem | null = null;

  private loadedHistory: MessageParam[] | null = [];
  private readHistory: (() => MessageParam[]) | null = null;
  private historyRead: ((history: MessageParam[]) => void) | null = null;

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
   */
  get history(): MessageParam[] {
    if (!this.loadedHistory) {
      const history = this.readHistory!();
      this.loadedHistory = history;
      this.readHistory = null;
      // Before anyone can change it: what the log holds.
      this.historyRead?.(history);
    }
    return this.loadedHistory;
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

  /** Told once, when a deferred history is read back (persistence takes it as what the log holds). */
  whenHistoryRead(listener: (history: MessageParam[]) => void): void {
    this.historyRead = listener;
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
        if (event.planDropped) {
          this.plan = null;
          this.summary = withoutPlanProgress(this.summary);
        }
        return;
      case 'session_updated':
        if (event.session.id === this.summary.id) this.summary = event.session;
        return;
      case 'plan_updated':
        if (event.sessionId !== this.summary.id) return;
        for (const item of planChangeItems(this.plan, event)) this.items.set(item);
        this.plan = event.plan;
        this.summary = { ...this.summary, planProgress: planProgress(event.plan, this.summary.planProgress) };
        return;
      default:
        return;
    }
  }
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
  return summaries
    .map((s, order) => ({ s, order }))
    .sort((a, b) => (a.s.updatedAt === b.s.updatedAt ? b.order - a.order : a.s.updatedAt < b.s.updatedAt ? 1 : -1))
    .map(({ s }) => s);
}

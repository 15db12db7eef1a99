import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { ApprovalRequest, EscalationRequest } from '../../shared/prompts';
import type { RunState, SessionSummary, TranscriptItem } from '../../shared/transcript';

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
  /** The Messages API history; kept valid (alternating roles, every tool_use answered). */
  readonly history: MessageParam[] = [];
  private readonly items = new Map<string, TranscriptItem>();

  constructor(summary: SessionSummary) {
    this.summary = summary;
  }

  get transcript(): TranscriptItem[] {
    return [...this.items.values()];
  }

  item(id: string): TranscriptItem | undefined {
    return this.items.get(id);
  }

  /** Folds one event into the state; events for other sessions are ignored. */
  apply(event: WaypointEvent): void {
    switch (event.type) {
      case 'transcript_item':
        if (event.sessionId === this.summary.id) this.items.set(event.item.id, event.item);
        return;
      case 'message_delta': {
        const item = event.sessionId === this.summary.id ? this.items.get(event.itemId) : undefined;
        if (item?.kind === 'assistant') this.items.set(item.id, { ...item, text: item.text + event.text });
        return;
      }
      case 'run_state':
        if (event.sessionId === this.summary.id) this.runState = event.state;
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
      case 'session_updated':
        if (event.session.id === this.summary.id) this.summary = event.session;
        return;
      default:
        return;
    }
  }
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

import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import type { SessionSummary } from '../../shared/transcript';
import type { ChatSession, HistoryEvent } from '../chats/chat-session';
import type { KeptVersion } from '../chats/chat-versions';
import type { Usage } from '../../shared/usage';
import type { Disposable } from '../common/emitter';

/** One request's usage, priced, and the plan step that was in progress when it was sent. */
export interface UsageRecord {
  sessionId: string;
  model: string;
  usage: Usage;
  step: { planId: string; stepId: number } | null;
  /** The plan that was active when it was sent: its budget's spend (a step or none in progress). */
  planId?: string | null;
}

/** What persistence needs of the chats of record (Chats implements it). */
export interface ChatHost {
  onEvent(listener: (event: WaypointEvent) => void): Disposable;
  /** Every change to a chat's API history, as it is made (ChatSession.onHistoryChange). */
  onHistoryChange(listener: (sessionId: string, event: HistoryEvent) => void): Disposable;
  /** Every version a chat keeps beside the one it shows, as it is kept (ChatSession.onVersionKept). */
  onVersionKept(listener: (sessionId: string, kept: KeptVersion) => void): Disposable;
  listSessions(): SessionSummary[];
  sessionState(sessionId: string): ChatSession | undefined;
  adoptSession(session: ChatSession): void;
  /** Lists a chat from the chat index; `read` (which adopts it) runs when the chat is first used. */
  listUnreadSession(summary: SessionSummary, read: () => void): void;
  /** The chat's state when it is in memory; undefined for a chat only listed (its log is not read). */
  sessionInMemory(sessionId: string): ChatSession | undefined;
  /** Applies and announces an event another process logged for this chat (it is not logged again). */
  mirror(sessionId: string, event: WaypointEvent): void;
  renameSession(sessionId: string, title: string): SessionSummary;
  pinSession(sessionId: string, pinned: boolean): SessionSummary;
  removeSession(sessionId: string): boolean;
}

/** What persistence needs of the conversation loop's runs (ChatService implements it). */
export interface RunHost {
  onUsage(listener: (record: UsageRecord) => void): Disposable;
}

/** What persistence needs of the plan service. */
export interface PlanHost {
  restore(sessionId: string, plan: Plan): void;
  /** Asked for the plan of a chat it does not know, the store has `read` bring the chat from its log first. */
  readWhenUnknown(read: (sessionId: string) => void): void;
  /** Forgets the chat's plan (a rewind another process logged dropped it, or another version was shown). */
  drop(sessionId: string): void;
}

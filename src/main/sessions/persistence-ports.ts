import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import type { SessionSummary } from '../../shared/transcript';
import type { ChatSession } from '../agent/session-state';
import type { UsageRecord } from '../agent/usage-meter';
import type { Disposable } from '../common/emitter';
import type { PlanUpdate } from '../plan/plan-service.types';

/** What persistence needs of the chat service (ChatService implements it). */
export interface ChatHost {
  onEvent(listener: (event: WaypointEvent) => void): Disposable;
  onUsage(listener: (record: UsageRecord) => void): Disposable;
  listSessions(): SessionSummary[];
  sessionState(sessionId: string): ChatSession | undefined;
  adoptSession(session: ChatSession): void;
  renameSession(sessionId: string, title: string): SessionSummary;
  removeSession(sessionId: string): boolean;
}

/** What persistence needs of the plan service. */
export interface PlanHost {
  onPlanUpdated(listener: (update: PlanUpdate) => void): Disposable;
  restore(sessionId: string, plan: Plan): void;
}

import type { Dialect, Plan } from '../../shared/plan';
import type { Disposable } from '../common/emitter';
import type { ToolDefinition } from '../agent/tool';

/** What a plan change looks like to subscribers (the loop, the shells, the session log). */
export interface PlanUpdate {
  sessionId: string;
  version: number;
  plan: Plan;
  /** A short line for the transcript, e.g. "Updated plan: step 2 completed". */
  change: string;
}

/** The plan service as the conversation loop sees it. */
export interface PlanServiceApi {
  onPlanUpdated(listener: (update: PlanUpdate) => void): Disposable;
  getPlan(sessionId: string): Plan | null;
  /** The dialect of the session's plan, or the given default while it has none. */
  dialectFor(sessionId: string, fallback: Dialect): Dialect;
  /** The planning tools Claude sees for a dialect; `execute` acts on ctx.sessionId's plan. */
  toolsFor(dialect: Dialect): ToolDefinition[];
  /** The planning guidance added to the system prompt in agentic mode. */
  guidance(dialect: Dialect): string;
  /** Forget a session's plan (chat deleted). */
  drop(sessionId: string): void;
}

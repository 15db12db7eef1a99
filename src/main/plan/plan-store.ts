import type { Plan } from '../../shared/plan';
import { Emitter, type Disposable } from '../common/emitter';
import type { OpResult } from './engine/engine-types';
import { deepFreeze } from './engine/freeze';
import type { PlanCause, PlanUpdate } from './plan-service.types';

/** How many replaced plans a session remembers (planning_list / planning_status of old ids). */
const HISTORY_LIMIT = 20;

interface SessionPlans {
  current: Plan;
  earlier: Plan[];
}

/**
 * The thin stateful holder around the pure engine: one current plan per chat session. Operations
 * run synchronously against the current snapshot, so concurrent tool calls cannot interleave;
 * a successful change is stored and announced, a failed one leaves everything as it was.
 */
export class PlanStore implements Disposable {
  private readonly sessions = new Map<string, SessionPlans>();
  private readonly updates = new Emitter<PlanUpdate>();
  readonly onPlanUpdated = this.updates.event;
  private readUnknown: ((sessionId: string) => void) | null = null;

  /**
   * Asked for a chat with no plan here: `read` brings the chat from its log first (a chat the
   * chat index only listed; its plan is restored then), so a plan is never missed for not being read yet.
   */
  readWhenUnknown(read: (sessionId: string) => void): void {
    this.readUnknown = read;
  }

  private plans(sessionId: string): SessionPlans | undefined {
    if (!this.sessions.has(sessionId)) this.readUnknown?.(sessionId);
    return this.sessions.get(sessionId);
  }

  get(sessionId: string): Plan | null {
    return this.plans(sessionId)?.current ?? null;
  }

  /** Plans this session replaced, oldest first. */
  earlier(sessionId: string): readonly Plan[] {
    return this.plans(sessionId)?.earlier ?? [];
  }

  apply(sessionId: string, operation: (current: Plan | null) => OpResult, cause: PlanCause): OpResult {
    const entry = this.plans(sessionId);
    const result = operation(entry?.current ?? null);
    if (!result.ok || result.plan === entry?.current) return result;
    if (entry && entry.current.id !== result.plan.id) {
      entry.earlier = [...entry.earlier, entry.current].slice(-HISTORY_LIMIT);
    }
    this.sessions.set(sessionId, { current: result.plan, earlier: entry?.earlier ?? [] });
    this.updates.fire({ sessionId, plan: result.plan, change: { ...cause, summary: result.change } as PlanUpdate['change'] });
    return result;
  }

  /** Puts back a plan read from the session log (no event: nothing changed). */
  restore(sessionId: string, plan: Plan): void {
    const current = this.sessions.get(sessionId);
    if (current && current.current.version >= plan.version) return;
    this.sessions.set(sessionId, { current: deepFreeze(structuredClone(plan)), earlier: current?.earlier ?? [] });
  }

  drop(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  dispose(): void {
    this.updates.dispose();
    this.sessions.clear();
  }
}

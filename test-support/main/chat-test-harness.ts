/**
 * Test support for ChatService tests: real settings/key sources, a tiny in-memory plan service
 * (a real implementation of PlanServiceApi, just small), and an event recorder that can wait.
 */
import { randomUUID } from 'node:crypto';
import { ApprovalRuleFields } from '../../src/shared/approval-rules';
import type { WaypointEvent } from '../../src/shared/contract';
import type { Dialect, Plan } from '../../src/shared/plan';
import { defaultSettings, type Settings } from '../../src/shared/settings';
import type { ApiKeySource, SettingsSource } from '../../src/main/agent/ports';
import { Emitter, type Disposable } from '../../src/main/common/emitter';
import type { OpResult, PlanServiceApi, PlanUpdate } from '../../src/main/plan/plan-service.types';
import { z } from 'zod';
import { defineTool } from '../../src/main/tools/define-tool';
import { fail, ok, type ToolDefinition } from '../../src/main/tools/tool';

export function settingsSource(patch: Partial<Settings> = {}): SettingsSource & { set(p: Partial<Settings>): void } {
  let current: Settings = { ...defaultSettings(), model: 'claude-sonnet-4-6', ...patch };
  const changed = new Emitter<Settings>();
  return {
    get: () => current,
    onDidChange: changed.event,
    set(p) {
      current = { ...current, ...p };
      changed.fire(current);
    },
    async addApprovalRule(fields) {
      const parsed = ApprovalRuleFields.parse(fields);
      const rule = { id: randomUUID(), ...parsed, pattern: parsed.pattern.trim(), createdAt: new Date().toISOString() };
      current = { ...current, approvalRules: [...current.approvalRules, rule] };
      changed.fire(current);
      return rule;
    },
  };
}

export function keySource(key: string | null): ApiKeySource {
  return { getKey: () => key, state: () => ({ hasApiKey: !!key, source: key ? 'env' : 'none' }) };
}

/** One flat plan per session, driven by two tools: make_plan {steps} and finish_step {id}. */
export class TinyPlanService implements PlanServiceApi {
  private readonly updated = new Emitter<PlanUpdate>();
  private readonly plans = new Map<string, Plan>();

  onPlanUpdated(listener: (update: PlanUpdate) => void): Disposable {
    return this.updated.event(listener);
  }
  getPlan(sessionId: string): Plan | null {
    return this.plans.get(sessionId) ?? null;
  }
  dialectFor(sessionId: string, fallback: Dialect): Dialect {
    return this.plans.get(sessionId)?.dialect ?? fallback;
  }
  guidance(dialect: Dialect): string {
    return `PLANNING GUIDANCE (${dialect}): plan multi-step work with make_plan.`;
  }
  drop(sessionId: string): void {
    this.plans.delete(sessionId);
  }
  restore(sessionId: string, plan: Plan): void {
    this.plans.set(sessionId, plan);
  }
  markUndone(sessionId: string): boolean {
    const plan = this.plans.get(sessionId);
    if (!plan) return false;
    this.set(sessionId, { ...plan, status: 'cancelled', version: plan.version + 1 }, 'Undone');
    return true;
  }
  // The tiny plans know no edits, reviews or step calls: those are the real PlanService's (tested with it).
  editPlan(): OpResult {
    return { ok: false, error: 'The tiny plan service takes no edits.' };
  }
  reviewPlan(): OpResult {
    return { ok: false, error: 'The tiny plan service takes no reviews.' };
  }
  recordToolCall(): boolean {
    return false;
  }
  // Tiny plans are never due for a goal check (they set no goalCheckDue): the real PlanService's.
  recordGoalCheck(): OpResult {
    return { ok: false, error: 'The tiny plan service takes no goal checks.' };
  }
  reopenWithFixes(): OpResult {
    return { ok: false, error: 'The tiny plan service takes no goal checks.' };
  }
  setBudget(): OpResult {
    return { ok: false, error: 'The tiny plan service keeps no budgets.' };
  }
  budgetReached(): OpResult {
    return { ok: false, error: 'The tiny plan service keeps no budgets.' };
  }
  answerBudget(): OpResult {
    return { ok: false, error: 'The tiny plan service keeps no budgets.' };
  }
  toolsFor(dialect: Dialect): ToolDefinition[] {
    // Loose on purpose: these stand-in tools check their own arguments, as the tests expect.
    const base = { group: 'planning' as const, input: z.record(z.string(), z.unknown()), summarize: () => 'plan', describeDryRun: () => 'plan', needsApproval: () => false };
    return [
      defineTool({
        ...base,
        name: 'make_plan',
        description: 'Create a plan.',
        inputSchema: { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' } } }, required: ['steps'] },
        execute: async (input, ctx) => {
          const steps = input.steps;
          if (!Array.isArray(steps) || steps.length === 0) return fail('invalid_parameter', 'steps: give at least one step title.');
          const now = new Date().toISOString();
          const plan: Plan = {
            id: `plan-${ctx.sessionId}`,
            dialect,
            goal: 'goal',
            status: 'active',
            steps: steps.map((title, i) => ({ id: i + 1, title: String(title), status: 'pending', dependsOn: [], notes: [], attempts: [] })),
            version: 1,
            createdAt: now,
            updatedAt: now,
            summary: { total: steps.length, completed: 0, in_progress: 0, pending: steps.length, failed: 0, skipped: 0, percent: 0 },
          };
          this.set(ctx.sessionId, plan, `Created plan with ${steps.length} steps`);
          return ok(JSON.stringify({ success: true, version: 1 }));
        },
      }),
      defineTool({
        ...base,
        name: 'finish_step',
        description: 'Complete a step.',
        inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
        execute: async (input, ctx) => {
          const plan = this.plans.get(ctx.sessionId);
          const id = input.id;
          if (!plan) return fail('not_found', 'No plan yet: call make_plan first.');
          const steps = plan.steps.map((s) => (s.id === id ? { ...s, status: 'completed' as const } : s));
          const completed = steps.filter((s) => s.status === 'completed').length;
          const done = completed === steps.length;
          const next: Plan = {
            ...plan,
            steps,
            version: plan.version + 1,
            status: done ? 'completed' : 'active',
            summary: { ...plan.summary, completed, pending: steps.length - completed, percent: Math.round((100 * completed) / steps.length) },
            ...(done ? { completion: { status: 'success' as const, summary: 'All done.', issues: [] } } : {}),
          };
          this.set(ctx.sessionId, next, `Step ${String(id)} completed`);
          return ok(JSON.stringify({ success: true, version: next.version }));
        },
      }),
    ];
  }
  private set(sessionId: string, plan: Plan, change: string): void {
    this.plans.set(sessionId, plan);
    this.updated.fire({ sessionId, plan, change: { kind: 'planning', by: 'claude', summary: change } });
  }
}

/** Records every event and lets a test wait for one that matches. */
export class EventRecorder {
  readonly events: WaypointEvent[] = [];
  private waiters: { match: (e: WaypointEvent) => boolean; resolve: (e: WaypointEvent) => void }[] = [];

  readonly listener = (event: WaypointEvent): void => {
    this.events.push(event);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(event)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  };

  /** Resolves with the first matching event after `fromIndex` (default: any recorded so far). */
  waitFor(match: (e: WaypointEvent) => boolean, timeoutMs = 15_000, fromIndex = 0): Promise<WaypointEvent> {
    const seen = this.events.slice(fromIndex).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No matching event within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) });
    });
  }

  /** Waits until the run that starts after event index `fromIndex` is idle again. */
  idle(sessionId: string, fromIndex = 0, timeoutMs = 15_000): Promise<WaypointEvent> {
    return this.waitFor((e) => e.type === 'run_state' && e.sessionId === sessionId && e.state.status === 'idle', timeoutMs, fromIndex);
  }

  ofType<T extends WaypointEvent['type']>(type: T): Extract<WaypointEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<WaypointEvent, { type: T }> => e.type === type);
  }
}

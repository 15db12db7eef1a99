import type { Dialect, Plan, StepAttempt } from '../../shared/plan';
import type { ToolDefinition } from '../agent/tool';
import type { Disposable } from '../common/emitter';
import { AtomicFileWriter } from './atomic-write';
import type { DialectDeps } from './dialects/dialect-deps';
import { DIALECT_GUIDANCE, DIALECT_TOOLS } from './dialects/index';
import { wbsPath } from './dialects/wbs-file';
import { cancelPlan } from './engine/close-plan';
import { defaultEngineOptions, type EngineOptions } from './engine/engine-types';
import { recordAttempt } from './engine/step-notes';
import { setStepStatus } from './engine/step-status';
import { PlanStore } from './plan-store';
import type { PlanServiceApi, PlanUpdate } from './plan-service.types';

export interface PlanServiceOptions {
  dataDir: string;
  maxInProgress?: number;
  now?: () => Date;
}

/**
 * One active plan per chat session, driven by the planning dialects' tools and by recovery.
 * Every successful change fires onPlanUpdated; refused changes fire nothing.
 */
export class PlanService implements PlanServiceApi, Disposable {
  private readonly store = new PlanStore();
  private readonly options: EngineOptions;
  private readonly tools = new Map<Dialect, ToolDefinition[]>();
  private readonly deps: DialectDeps;
  readonly onPlanUpdated: (listener: (update: PlanUpdate) => void) => Disposable = this.store.onPlanUpdated;

  constructor(private readonly serviceOptions: PlanServiceOptions) {
    this.options = defaultEngineOptions({ maxInProgress: serviceOptions.maxInProgress, now: serviceOptions.now });
    const store = this.store;
    this.deps = {
      options: this.options,
      get: (id) => store.get(id),
      earlier: (id) => store.earlier(id),
      apply: (id, op) => store.apply(id, op),
      dataDir: serviceOptions.dataDir,
      writer: new AtomicFileWriter(),
    };
  }

  getPlan(sessionId: string): Plan | null {
    return this.store.get(sessionId);
  }

  dialectFor(sessionId: string, fallback: Dialect): Dialect {
    return this.store.get(sessionId)?.dialect ?? fallback;
  }

  /** Built once per dialect: the tools keep per-dialect state (WBS progress) across requests. */
  toolsFor(dialect: Dialect): ToolDefinition[] {
    let tools = this.tools.get(dialect);
    if (!tools) {
      tools = DIALECT_TOOLS[dialect](this.deps);
      this.tools.set(dialect, tools);
    }
    return [...tools];
  }

  guidance(dialect: Dialect): string {
    return DIALECT_GUIDANCE[dialect];
  }

  drop(sessionId: string): void {
    this.store.drop(sessionId);
  }

  /** The in-progress step recovery attributes failures to, if any. */
  currentStepId(sessionId: string): number | null {
    const plan = this.store.get(sessionId);
    if (!plan || plan.status !== 'active') return null;
    return plan.steps.find((s) => s.status === 'in_progress')?.id ?? null;
  }

  /** Appends a recovery attempt to the step's history. Returns false when there is no such step. */
  recordAttempt(sessionId: string, stepId: number, attempt: StepAttempt): boolean {
    return this.store.apply(sessionId, (plan) => (plan ? recordAttempt(plan, stepId, attempt, this.options) : noPlan)).ok;
  }

  /** The user chose "Skip step". Returns false when the step can't be skipped (e.g. no plan). */
  skipStep(sessionId: string, stepId: number, reason: string): boolean {
    return this.store.apply(sessionId, (plan) =>
      plan ? setStepStatus(plan, { stepId, status: 'skipped', reason }, this.options) : noPlan,
    ).ok;
  }

  /** After "Send guidance": the step is in progress again (false if the rules forbid it). */
  restartStep(sessionId: string, stepId: number): boolean {
    return this.store.apply(sessionId, (plan) =>
      plan ? setStepStatus(plan, { stepId, status: 'in_progress' }, this.options) : noPlan,
    ).ok;
  }

  /** The user chose "Abort plan": the plan is cancelled and the panel hides. */
  cancelPlan(sessionId: string, reason: string): boolean {
    return this.store.apply(sessionId, (plan) => (plan ? cancelPlan(plan, reason, this.options) : noPlan)).ok;
  }

  /** Puts back a plan from the session log after a restart (no event; versions continue from it). */
  restore(sessionId: string, plan: Plan): void {
    this.store.restore(sessionId, plan);
  }

  /** Where the WBS dialect writes this chat's WBS.md. */
  wbsPath(sessionId: string): string {
    return wbsPath(this.serviceOptions.dataDir, sessionId);
  }

  dispose(): void {
    this.store.dispose();
  }
}

const noPlan = { ok: false, error: 'There is no plan.' } as const;

import { isAwaitingApproval, type Dialect, type Plan, type StepAttempt, type StepToolCall } from '../../shared/plan';
import { inPlanFirstMode } from '../../shared/plan-first';
import type { ReviewDecision } from '../../shared/plan-review';
import { ok, type ToolDefinition, type ToolOutcome } from '../tools/tool';
import type { Disposable } from '../common/emitter';
import { AtomicFileWriter } from '../common/atomic-write';
import type { DialectDeps } from './dialects/dialect-deps';
import { DIALECT_GUIDANCE, DIALECT_TOOLS } from './dialects/index';
import { wbsPath } from './dialects/wbs-file';
import { cancelPlan } from './engine/close-plan';
import { defaultEngineOptions, type EngineOptions, type OpResult, rejected } from './engine/engine-types';
import { proposalGuard, proposalNote, propose, reviewProposal } from './engine/plan-review';
import { amend } from './engine/seal';
import { recordStepCall } from './engine/step-calls';
import { type GoalCheckResult, recordGoalCheck, reopenWithFixes } from './engine/goal-check';
import { applyUserEdit, type UserEditRequest } from './engine/user-edits';
import { recordAttempt } from './engine/step-notes';
import { setStepStatus } from './engine/step-status';
import { markUndone, type UndoFiles } from './engine/undo-plan';
import { PlanStore } from './plan-store';
import { answerBudget, markBudgetReached, setPlanBudget } from './engine/plan-budget';
import type { BudgetAnswer, BudgetReached, PlanBudget } from '../../shared/budget';
import type { PlanCause, PlanServiceApi, PlanUpdate } from './plan-service.types';

export interface PlanServiceOptions {
  dataDir: string;
  maxInProgress?: number;
  now?: () => Date;
  /** The "Plan first" setting, for chats without a plan yet (default off). */
  planFirst?: () => boolean;
  /** A chat's workspace folder (WBS.md is written there); without it every chat has none. */
  workspaceOf?: (sessionId: string) => string | null;
  /** Settings' "Budget per plan (USD)" and "Time per plan (minutes)": what a new plan starts with. */
  budgetDefaults?: () => Pick<PlanBudget, 'usd' | 'minutes'>;
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
      // Every dialect tool call is Claude's.
      apply: (id, op) => store.apply(id, (current) => this.claudeChange(current, op(current)), CLAUDE_PLANNING),
      dataDir: serviceOptions.dataDir,
      workspaceOf: (id) => serviceOptions.workspaceOf?.(id) ?? null,
      writer: new AtomicFileWriter(),
    };
  }

  /** For persistence: how a chat only listed is read when its plan is asked for (plan-store.ts). */
  readWhenUnknown(read: (sessionId: string) => void): void {
    this.store.readWhenUnknown(read);
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
      tools = DIALECT_TOOLS[dialect](this.deps).map((tool) => this.withProposalNote(tool));
      this.tools.set(dialect, tools);
    }
    return [...tools];
  }

  /** The user's edit in the panel (docs/contract.md §2): refused edits change nothing and say why. */
  editPlan(sessionId: string, request: UserEditRequest): OpResult {
    return this.store.apply(sessionId, (plan) => applyUserEdit(plan, request, this.options), { kind: 'edit', by: 'user', edit: request.edit.kind });
  }

  /** Plan first: the user approves the proposal they saw, or asks for a revision. */
  reviewPlan(sessionId: string, planId: string, version: number, decision: ReviewDecision): OpResult {
    return this.store.apply(sessionId, (plan) => reviewProposal(plan, planId, version, decision, this.options), {
      kind: 'review',
      by: 'user',
      action: decision.kind === 'approve' ? 'approve' : 'feedback',
    });
  }

  /** "Save budget" in the panel: this plan's dollar budget from now on. */
  setBudget(sessionId: string, planId: string, usd: number): OpResult {
    return this.store.apply(sessionId, (plan) => setPlanBudget(plan, planId, usd, this.options), { kind: 'budget', by: 'user', action: 'set' });
  }

  /** The run stopped at the plan's budget (agent/plan-hooks/budget-gate.ts): the plan awaits an answer. */
  budgetReached(sessionId: string, reached: BudgetReached): OpResult {
    return this.store.apply(sessionId, (plan) => markBudgetReached(plan, reached, this.options), { kind: 'budget', by: 'waypoint', action: 'reached' });
  }

  /** "Extend budget" or "End plan". */
  answerBudget(sessionId: string, answer: BudgetAnswer, spentUsd: number): OpResult {
    return this.store.apply(sessionId, (plan) => answerBudget(plan, answer, spentUsd, this.options), { kind: 'budget', by: 'user', action: answer.kind });
  }

  /** A tool call made while `stepId` was in progress, listed on that step. */
  recordToolCall(sessionId: string, stepId: number, call: StepToolCall): boolean {
    return this.store.apply(sessionId, (plan) => (plan ? recordStepCall(plan, stepId, call, this.options) : noPlan), ACTIVITY).ok;
  }

  /** Records the goal check of the plan's completion (engine/goal-check.ts). */
  recordGoalCheck(sessionId: string, result: GoalCheckResult): OpResult {
    return this.store.apply(sessionId, (plan) => (plan ? recordGoalCheck(plan, result, this.options) : noPlan), GOAL_CHECK);
  }

  /** A goal check not met: the plan reopens with a "Fix: …" step per finding. */
  reopenWithFixes(sessionId: string, findings: readonly string[]): OpResult {
    return this.store.apply(sessionId, (plan) => (plan ? reopenWithFixes(plan, findings, this.options) : noPlan), REOPEN);
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
    return this.store.apply(sessionId, (plan) => (plan ? recordAttempt(plan, stepId, attempt, this.options) : noPlan), RECOVERY).ok;
  }

  /** Skips a step: the user's "Skip step", or recovery's auto-skip. False when it can't be skipped (e.g. no plan). */
  skipStep(sessionId: string, stepId: number, reason: string, cause: PlanCause): boolean {
    return this.store.apply(
      sessionId,
      (plan) => (plan ? setStepStatus(plan, { stepId, status: 'skipped', reason }, this.options) : noPlan),
      cause,
    ).ok;
  }

  /** After "Send guidance": the step is in progress again (false if the rules forbid it). */
  restartStep(sessionId: string, stepId: number): boolean {
    return this.store.apply(
      sessionId,
      (plan) => (plan ? setStepStatus(plan, { stepId, status: 'in_progress' }, this.options) : noPlan),
      { kind: 'escalation', by: 'user', answer: 'guidance' },
    ).ok;
  }

  /** The user chose "Abort plan": the plan is cancelled and the panel hides. */
  cancelPlan(sessionId: string, reason: string): boolean {
    return this.store.apply(sessionId, (plan) => (plan ? cancelPlan(plan, reason, this.options) : noPlan), {
      kind: 'escalation',
      by: 'user',
      answer: 'abort',
    }).ok;
  }

  /** "Undo plan" restored the plan's files: the plan ends as undone (engine/undo-plan.ts). */
  markUndone(sessionId: string, files: UndoFiles): boolean {
    return this.store.apply(sessionId, (plan) => (plan ? markUndone(plan, files, this.options) : noPlan), { kind: 'undo', by: 'user' }).ok;
  }

  /** Puts back a plan from the session log after a restart (no event; versions continue from it). */
  restore(sessionId: string, plan: Plan): void {
    this.store.restore(sessionId, plan);
  }

  /** Where the WBS dialect writes this chat's WBS.md. */
  wbsPath(sessionId: string): string {
    return wbsPath(this.serviceOptions.dataDir, sessionId, this.serviceOptions.workspaceOf?.(sessionId) ?? null);
  }

  dispose(): void {
    this.store.dispose();
  }

  /**
   * Claude's planning change, checked for plan first: a new plan in a plan-first chat is a
   * proposal, and a proposal may be reshaped but not worked on. Stamps the version as Claude's.
   */
  private claudeChange(current: Plan | null, result: OpResult): OpResult {
    if (!result.ok || result.plan === current) return result;
    let next: OpResult = result;
    if (!current || current.id !== result.plan.id) {
      if (inPlanFirstMode(current, this.serviceOptions.planFirst?.() ?? false)) next = propose(result);
      // A new plan starts with Settings' budget (none when both are empty).
      const defaults = this.serviceOptions.budgetDefaults?.();
      if (next.ok && defaults && (defaults.usd !== undefined || defaults.minutes !== undefined)) next = { ...next, plan: amend(next.plan, { budget: { ...defaults } }) };
    } else if (isAwaitingApproval(current)) {
      const refusal = proposalGuard(current, result.plan);
      if (refusal) return rejected(refusal);
    }
    return next.ok ? { ...next, plan: amend(next.plan, { claudeVersion: next.plan.version }) } : next;
  }

  /** While its plan awaits approval, a planning call that changed it tells Claude so (and to end its turn). */
  private withProposalNote(tool: ToolDefinition): ToolDefinition {
    return {
      ...tool,
      execute: async (input, ctx): Promise<ToolOutcome> => {
        const before = this.store.get(ctx.sessionId)?.version;
        const outcome = await tool.execute(input, ctx);
        const plan = this.store.get(ctx.sessionId);
        if (!outcome.ok || !isAwaitingApproval(plan) || plan.version === before) return outcome;
        return ok(withNote(outcome.content, proposalNote(plan)));
      },
    };
  }
}

/** JSON results (checklist, WBS, session) get the note as a field, so they stay JSON; text gets a line. */
function withNote(content: string, note: string): string {
  try {
    const value: unknown = JSON.parse(content);
    if (value && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify({ ...value, approval: note });
  } catch {
    // Plain text.
  }
  return `${content}\n${note}`;
}

const noPlan = { ok: false, error: 'There is no plan.' } as const;
const CLAUDE_PLANNING: PlanCause = { kind: 'planning', by: 'claude' };
const RECOVERY: PlanCause = { kind: 'recovery', by: 'claude' };
const ACTIVITY: PlanCause = { kind: 'activity', by: 'claude' };
const GOAL_CHECK: PlanCause = { kind: 'goal_check', by: 'waypoint', action: 'verdict' };
const REOPEN: PlanCause = { kind: 'goal_check', by: 'waypoint', action: 'reopen' };

import type { BudgetAnswer, BudgetReached } from '../../shared/budget';
import type { Dialect, Plan, StepToolCall } from '../../shared/plan';
import type { ReviewDecision } from '../../shared/plan-review';
import type { PlanCause, PlanUpdate } from '../../shared/plan-change';
import type { Disposable } from '../common/emitter';
import type { ToolDefinition } from '../tools/tool';
import type { UndoFiles } from './engine/undo-plan';
import type { OpResult } from './engine/engine-types';
import type { UserEditRequest } from './engine/user-edits';
import type { GoalCheckResult } from './engine/goal-check';

export type { GoalCheckResult, OpResult, PlanCause, PlanUpdate, UserEditRequest };

/** The plan service as the conversation loop sees it. */
export interface PlanServiceApi {
  /** One update per change (plan_updated {sessionId, plan, change}). */
  onPlanUpdated(listener: (update: PlanUpdate) => void): Disposable;
  getPlan(sessionId: string): Plan | null;
  /** The dialect of the session's plan, or the given default while it has none. */
  dialectFor(sessionId: string, fallback: Dialect): Dialect;
  /** The planning tools Claude sees for a dialect; `execute` acts on ctx.sessionId's plan. */
  toolsFor(dialect: Dialect): ToolDefinition[];
  /** The planning guidance added to the system prompt in agentic mode. */
  guidance(dialect: Dialect): string;
  /** Forget a session's plan (chat deleted, or an edit replaced the turns that made it). */
  drop(sessionId: string): void;
  /** Puts a plan in place without an event (a chat's log on start; the plan of a version shown again, agent/loop/rerun.ts). */
  restore(sessionId: string, plan: Plan): void;
  /** "Undo plan" (or a rerun) put the plan's files back: the plan ends as undone. */
  markUndone(sessionId: string, files: UndoFiles): boolean;
  /** The user's edit in the panel; a refusal says why and changes nothing. */
  editPlan(sessionId: string, request: UserEditRequest): OpResult;
  /** Plan first: approve the proposal the user saw, or ask for a revision. */
  reviewPlan(sessionId: string, planId: string, version: number, decision: ReviewDecision): OpResult;
  /** "Save budget": this plan's dollar budget (refused with why for a replaced or closed plan). */
  setBudget(sessionId: string, planId: string, usd: number): OpResult;
  /** The run stopped at the plan's budget: the plan records the stop it awaits an answer to. */
  budgetReached(sessionId: string, reached: BudgetReached): OpResult;
  /** "Extend budget" or "End plan" (the plan ends as partial). */
  answerBudget(sessionId: string, answer: BudgetAnswer, spentUsd: number): OpResult;
  /** A tool call made while `stepId` was in progress (false when there is no such step). */
  recordToolCall(sessionId: string, stepId: number, call: StepToolCall): boolean;
  /** The goal check of the plan's completion (engine/goal-check.ts); refused when none is due. */
  recordGoalCheck(sessionId: string, result: GoalCheckResult): OpResult;
  /** A goal check not met: the plan reopens with a pending "Fix: FINDING" step per finding. */
  reopenWithFixes(sessionId: string, findings: readonly string[]): OpResult;
}

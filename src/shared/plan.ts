import { z } from 'zod';
import { PlanBudget } from './budget';
import { PlanEditRecord } from './plan-edit';
import { PlanReview } from './plan-review';

/** The plan model of docs/contract.md §2, shared by the engine (main) and the panel (renderer). */

export const StepStatus = z.enum(['pending', 'in_progress', 'completed', 'failed', 'skipped']);
export type StepStatus = z.infer<typeof StepStatus>;

export const PlanStatus = z.enum(['active', 'completed', 'partial', 'failed', 'cancelled']);
export type PlanStatus = z.infer<typeof PlanStatus>;

export const Priority = z.enum(['high', 'medium', 'low']);
export type Priority = z.infer<typeof Priority>;

export const Dialect = z.enum(['structured', 'checklist', 'wbs', 'session']);
export type Dialect = z.infer<typeof Dialect>;

/** Error classes of docs/contract.md §3 (recovery). */
export const ErrorClass = z.enum([
  'invalid_parameter',
  'not_found',
  'unavailable',
  'conflict',
  'transaction_failed',
  'timeout',
  'transient',
  'permission',
  'unknown',
]);
export type ErrorClass = z.infer<typeof ErrorClass>;

export const RecoveryStrategy = z.enum([
  'retry_with_modification',
  'refresh_context_and_retry',
  'retry_with_alternative',
  'rollback_and_retry',
  'skip_and_continue',
  'escalate_to_user',
]);
export type RecoveryStrategy = z.infer<typeof RecoveryStrategy>;

/** One recorded attempt on a step: the seed's retry history / recovery log entry. */
export const StepAttempt = z.object({
  at: z.string(),
  tool: z.string(),
  inputSummary: z.string(),
  error: z.string(),
  errorClass: ErrorClass,
  strategy: RecoveryStrategy,
  outcome: z.enum(['retrying', 'escalated', 'skipped', 'succeeded', 'aborted']),
  durationMs: z.number().nonnegative(),
});
export type StepAttempt = z.infer<typeof StepAttempt>;

/** A tool call made while a step was in progress (honest progress: what happened, not only what Claude said). */
export const StepToolCall = z.object({
  /** When it started. */
  at: z.string(),
  tool: z.string(),
  /** The call's one-line summary, e.g. "Write src/app.ts (120 bytes)". */
  summary: z.string(),
  durationMs: z.number().nonnegative(),
  ok: z.boolean(),
  /** Its share of the request that asked for it (USD), when known. */
  costUsd: z.number().nonnegative().optional(),
  /** The tool_use id: the goal check reads a verification step's outputs from the calls' cards. */
  toolUseId: z.string().optional(),
});
export type StepToolCall = z.infer<typeof StepToolCall>;

export const PlanStep = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  description: z.string().optional(),
  status: StepStatus,
  parentId: z.number().int().positive().optional(),
  dependsOn: z.array(z.number().int().positive()),
  priority: Priority.optional(),
  successCriteria: z.string().optional(),
  toolsToUse: z.array(z.string()).optional(),
  isVerification: z.boolean().optional(),
  result: z.string().optional(),
  reason: z.string().optional(),
  notes: z.array(z.string()),
  attempts: z.array(StepAttempt),
  /** The tool calls made while it was in progress, oldest first (the newest 50). */
  calls: z.array(StepToolCall).optional(),
  /** Dialect-specific label, e.g. the WBS id "1.2". */
  label: z.string().optional(),
});
export type PlanStep = z.infer<typeof PlanStep>;

export const PlanSummary = z.object({
  total: z.number().int().nonnegative(),
  completed: z.number().int().nonnegative(),
  in_progress: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** round(100 · completed / total); 0 for an empty plan. */
  percent: z.number().int().min(0).max(100),
});
export type PlanSummary = z.infer<typeof PlanSummary>;

export const PlanCompletion = z.object({
  status: z.enum(['success', 'partial_success', 'failed']),
  summary: z.string(),
  stepsCompleted: z.number().int().nonnegative().optional(),
  stepsFailed: z.number().int().nonnegative().optional(),
  stepsSkipped: z.number().int().nonnegative().optional(),
  issues: z.array(z.string()),
  created: z.array(z.union([z.string(), z.number()])).optional(),
  modified: z.array(z.union([z.string(), z.number()])).optional(),
  recommendations: z.string().optional(),
});
export type PlanCompletion = z.infer<typeof PlanCompletion>;

/** "Undo plan" put the files it changed back: the plan no longer stands (its steps are not done). */
export const PlanUndone = z.object({
  at: z.string(),
  restored: z.array(z.string()),
  deleted: z.array(z.string()),
  /** Changed outside Waypoint since, so left as they are (a later undo may still overwrite them). */
  skipped: z.array(z.string()),
});
export type PlanUndone = z.infer<typeof PlanUndone>;

/**
 * One goal check of a completed plan (docs/architecture.md "Goal checks"): an independent request
 * judged the goal met, not met (with findings), or the check failed (a malformed answer, an API
 * fault). `noProgress`: the findings repeat the previous check's, so no further round was started.
 */
export const GoalCheck = z.object({
  round: z.number().int().positive(),
  outcome: z.enum(['met', 'not_met', 'failed']),
  findings: z.array(z.string()),
  at: z.string(),
  /** Why the check failed, in words (outcome 'failed'). */
  error: z.string().optional(),
  noProgress: z.boolean().optional(),
  /** Not met: the plan reopened with a "Fix: …" step per finding and Claude was told. */
  reopened: z.boolean().optional(),
});
export type GoalCheck = z.infer<typeof GoalCheck>;

export const Plan = z.object({
  id: z.string(),
  dialect: Dialect,
  goal: z.string(),
  explanation: z.string().optional(),
  status: PlanStatus,
  steps: z.array(PlanStep),
  version: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  verificationApproach: z.string().optional(),
  rollbackStrategy: z.string().optional(),
  estimatedToolCalls: z.number().int().nonnegative().optional(),
  completion: PlanCompletion.optional(),
  undone: PlanUndone.optional(),
  summary: PlanSummary,
  /** The id the next new step gets; step ids are never reused within a plan, even after removal. */
  nextStepId: z.number().int().positive().optional(),
  /** Plan first: a proposal awaiting the user's approval, or the approval it got. Absent: not a plan-first plan. */
  review: PlanReview.optional(),
  /** The user's edits, oldest first (the newest 50). */
  edits: z.array(PlanEditRecord).optional(),
  /** The version of Claude's latest planning change to this plan. */
  claudeVersion: z.number().int().nonnegative().optional(),
  /** The plan completed and no goal check has judged this completion yet (set by the engine, cleared by the check). */
  goalCheckDue: z.boolean().optional(),
  /** The goal checks made of this plan, oldest first. */
  goalChecks: z.array(GoalCheck).optional(),
  /** Its budget in dollars and minutes (Settings' defaults, or the user's), and a stop at it awaiting an answer. */
  budget: PlanBudget.optional(),
});
export type Plan = z.infer<typeof Plan>;

/** docs/contract.md §5: the panel shows only while a plan with steps is active. */
export function isPlanVisible(plan: Plan | null | undefined): plan is Plan {
  return !!plan && plan.status === 'active' && plan.steps.length > 0;
}

/** Plan first: an active plan Claude proposed that the user has not approved yet. */
export function isAwaitingApproval(plan: Plan | null | undefined): plan is Plan {
  return !!plan && plan.status === 'active' && plan.review?.state === 'proposed';
}

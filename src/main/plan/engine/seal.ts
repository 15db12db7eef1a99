import type { Plan } from '../../../shared/plan';
import { type EngineOptions, type OpResult, rejected } from './engine-types';
import { deepFreeze } from './freeze';
import { allStepsDone, computeSummary } from './summary';
import { validatePlan } from './validate-plan';

/**
 * Turns a candidate plan into the next snapshot: validates it, recomputes the summary, applies
 * auto-completion, bumps the version by exactly one from `previousVersion`, stamps the time and
 * freezes it. Every mutating operation ends here, so the rules hold for all dialects.
 */
export function sealPlan(candidate: Plan, previousVersion: number, options: EngineOptions, change: string): OpResult {
  const error = validatePlan(candidate, options.maxInProgress);
  if (error) return rejected(error);
  const status = derivedStatus(candidate, allStepsDone(candidate.steps));
  let maxId = 0;
  for (const s of candidate.steps) if (s.id > maxId) maxId = s.id;
  const completedNow = status === 'completed' && candidate.status === 'active' && !candidate.completion;
  const plan: Plan = {
    ...candidate,
    status,
    version: previousVersion + 1,
    updatedAt: options.now().toISOString(),
    summary: computeSummary(candidate.steps),
    nextStepId: Math.max(candidate.nextStepId ?? 1, maxId + 1),
    // Completed by its last step: due for the goal check once Claude's turn ends.
    ...(completedNow ? { goalCheckDue: true } : {}),
  };
  return { ok: true, plan: markSealed(deepFreeze(plan)), change: completedNow ? `${change}; plan completed` : change };
}

/**
 * Snapshots this engine sealed, so known to meet every rule: a one-step change to one of them
 * needs only the checks that step can break (seal-step.ts). A plan from anywhere else (a session
 * log) gets the full validation on its first change.
 */
const sealed = new WeakSet<Plan>();

export function markSealed(plan: Plan): Plan {
  sealed.add(plan);
  return plan;
}

export function isSealed(plan: Plan): boolean {
  return sealed.has(plan);
}

/**
 * Auto-completion: a plan nobody has closed explicitly is completed exactly while all its steps
 * are completed or skipped (a new step reopens it). Closed plans keep their status.
 */
export function derivedStatus(plan: Plan, allDone: boolean): Plan['status'] {
  const open = plan.status === 'active' || (plan.status === 'completed' && !plan.completion);
  if (!open) return plan.status;
  return allDone ? 'completed' : 'active';
}

/** A plan can still change: not cancelled, failed, partial, nor closed with a completion. */
export function isOpen(plan: Plan): boolean {
  return (plan.status === 'active' || plan.status === 'completed') && !plan.completion;
}

/**
 * The same snapshot (same version, same rules met) with some bookkeeping fields set, e.g. the
 * plan-first review state or who made the change: a frozen, sealed copy.
 */
export function amend(plan: Plan, fields: Partial<Pick<Plan, 'review' | 'claudeVersion' | 'edits' | 'budget'>>): Plan {
  return markSealed(deepFreeze({ ...plan, ...fields }));
}

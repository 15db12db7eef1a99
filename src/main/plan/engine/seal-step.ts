import type { Plan, PlanStep, PlanSummary, StepStatus } from '../../../shared/plan';
import type { EngineOptions, OpResult } from './engine-types';
import { rejected } from './engine-types';
import { deepFreeze } from './freeze';
import { derivedStatus, isSealed, markSealed, sealPlan } from './seal';
import { replaceStep } from './step-lookup';
import { checkProgress, checkTitle } from './validate-plan';

/**
 * The fast path of sealPlan for the most frequent calls — status changes, renames, notes,
 * recovery attempts: some steps change, but the list (ids, order, parents, dependencies) does
 * not. The plan they change was sealed (so it met every rule), so only what the changed steps can
 * break is re-checked: their titles, the number of running steps, and the dependency rule for
 * the changed steps and the steps that depend on them — the same messages, in the same order, as
 * a full validation. No cycle check, the summary is shifted by the status changes, and only the
 * new objects are frozen (the other steps are shared with the previous snapshot, already frozen).
 */
export function sealStepChange(base: Plan, index: number, step: PlanStep, options: EngineOptions, change: string): OpResult {
  return sealStepChanges(base, replaceStep(base, index, step), [index], options, change);
}

/** `candidate` is `base` with the steps at `changed` replaced (same length and order). */
export function sealStepChanges(base: Plan, candidate: Plan, changed: readonly number[], options: EngineOptions, change: string): OpResult {
  if (!isSealed(base) || candidate.steps.length !== base.steps.length || !changed.every((i) => sameLinks(base.steps[i], candidate.steps[i]))) {
    return sealPlan(candidate, base.version, options, change);
  }
  const changedIds = new Set<number>();
  let summary = base.summary;
  for (const i of changed) {
    const step = candidate.steps[i] as PlanStep;
    const titleError = checkTitle(step);
    if (titleError) return rejected(titleError);
    changedIds.add(step.id);
    summary = shiftSummary(summary, (base.steps[i] as PlanStep).status, step.status);
  }
  const affected = (s: PlanStep) => changedIds.has(s.id) || s.dependsOn.some((d) => changedIds.has(d));
  const error = checkProgress(candidate.steps, options.maxInProgress, affected);
  if (error) return rejected(error);
  const status = derivedStatus(candidate, summary.total > 0 && summary.completed + summary.skipped === summary.total);
  const completedNow = status === 'completed' && candidate.status === 'active' && !candidate.completion;
  // Completed by its last step: due for the goal check once Claude's turn ends (seal.ts).
  const plan: Plan = { ...candidate, status, version: base.version + 1, updatedAt: options.now().toISOString(), summary, ...(completedNow ? { goalCheckDue: true } : {}) };
  Object.freeze(plan.steps);
  Object.freeze(summary);
  for (const i of changed) deepFreeze(plan.steps[i]);
  markSealed(Object.freeze(plan));
  return { ok: true, plan, change: completedNow ? `${change}; plan completed` : change };
}

function sameLinks(a: PlanStep | undefined, b: PlanStep | undefined): boolean {
  if (!a || !b) return false;
  return a.id === b.id && a.parentId === b.parentId && (a.dependsOn === b.dependsOn || (a.dependsOn.length === b.dependsOn.length && a.dependsOn.every((d, i) => d === b.dependsOn[i])));
}

/** The summary after one step moved from `from` to `to` (docs/contract.md §2 counts). */
function shiftSummary(summary: PlanSummary, from: StepStatus, to: StepStatus): PlanSummary {
  if (from === to) return summary; // shared with the previous snapshot (frozen)
  const next: PlanSummary = { ...summary }; // then plain writes: computed keys in a literal are slow in V8
  next[from] -= 1;
  next[to] += 1;
  next.percent = next.total === 0 ? 0 : Math.round((100 * next.completed) / next.total);
  return next;
}

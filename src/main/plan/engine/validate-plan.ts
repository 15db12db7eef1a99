import type { Plan, PlanStep } from '../../../shared/plan';
import { findDependencyCycle } from './cycle';
import { MAX_STEPS, MAX_TITLE_LENGTH } from './engine-types';

/**
 * The structural rules of docs/contract.md §2, checked on every candidate snapshot. Returns the first
 * broken rule as a message that says how to fix the call, or null when the plan is sound.
 */
export function validatePlan(plan: Plan, maxInProgress: number): string | null {
  const steps = plan.steps;
  if (steps.length > MAX_STEPS) return `A plan may have at most ${MAX_STEPS} steps; this one would have ${steps.length}. Merge steps.`;
  const position = new Map<number, number>();
  for (const [index, step] of steps.entries()) {
    if (!Number.isInteger(step.id) || step.id < 1) return `Step ids must be positive integers; got ${step.id}.`;
    if (position.has(step.id)) return `Step ${step.id} appears twice; every step needs its own number.`;
    position.set(step.id, index);
    const titleError = checkTitle(step);
    if (titleError) return titleError;
  }
  for (const [index, step] of steps.entries()) {
    const error = checkLinks(step, index, position);
    if (error) return error;
  }
  const cycle = findDependencyCycle(steps);
  if (cycle) {
    return `Dependency cycle: step ${cycle.join(' → ')} (each depends on the next), so none of them could ever start. Remove one of these dependencies.`;
  }
  return checkProgress(steps, maxInProgress);
}

export function checkTitle(step: PlanStep): string | null {
  const title = step.title;
  if (title.trim().length === 0) return `Step ${step.id} has an empty title; give it a short, non-empty title.`;
  if (title !== title.trim()) return `Step ${step.id}'s title has surrounding whitespace; trim it.`;
  if (title.length > MAX_TITLE_LENGTH) {
    return `Step ${step.id}'s title is ${title.length} characters long; the limit is ${MAX_TITLE_LENGTH}. Shorten it.`;
  }
  return null;
}

function checkLinks(step: PlanStep, index: number, position: Map<number, number>): string | null {
  if (step.parentId !== undefined) {
    const parentAt = position.get(step.parentId);
    if (parentAt === undefined) return `Step ${step.id}'s parent ${step.parentId} does not exist. Add the parent first or drop the parent reference.`;
    if (step.parentId === step.id) return `Step ${step.id} cannot be its own parent.`;
    if (parentAt > index) return `Step ${step.id} comes before its parent ${step.parentId}; a parent must precede its children.`;
  }
  for (const dep of step.dependsOn) {
    if (dep === step.id) return `Step ${step.id} depends on itself; remove ${dep} from its dependencies.`;
    if (!position.has(dep)) {
      return `Step ${step.id} depends on step ${dep}, which does not exist. Existing steps: ${listIds([...position.keys()])}.`;
    }
  }
  return null;
}

/**
 * At most maxInProgress running steps, and no running or completed step ahead of its
 * dependencies. `only` limits the dependency check to the steps a change can affect.
 */
export function checkProgress(steps: readonly PlanStep[], maxInProgress: number, only?: (step: PlanStep) => boolean): string | null {
  const running: PlanStep[] = [];
  for (const s of steps) if (s.status === 'in_progress') running.push(s);
  if (running.length > maxInProgress) {
    const ids = running.map((s) => s.id).join(', ');
    return `At most ${maxInProgress} step${maxInProgress === 1 ? '' : 's'} may be in progress at a time, but this would make steps ${ids} in progress. Complete, fail or skip the current step first.`;
  }
  let byId: Map<number, PlanStep> | undefined; // built only when a dependency has to be looked up
  for (const step of steps) {
    if (step.status !== 'in_progress' && step.status !== 'completed') continue;
    if (step.dependsOn.length === 0 || (only && !only(step))) continue;
    byId ??= new Map(steps.map((s) => [s.id, s]));
    for (const dep of step.dependsOn) {
      const blocker = byId.get(dep);
      if (blocker && blocker.status !== 'completed' && blocker.status !== 'skipped') {
        const verb = step.status === 'in_progress' ? 'start' : 'be completed';
        return `Step ${step.id} cannot ${verb} yet: it depends on step ${dep} ("${blocker.title}"), which is ${blocker.status}. Complete or skip step ${dep} first.`;
      }
    }
  }
  return null;
}

/** "1–5, 7" style list so error messages stay short even for long plans. */
export function listIds(ids: readonly number[]): string {
  if (ids.length === 0) return 'none';
  const sorted = [...ids].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = sorted[0] as number;
  let prev = start;
  for (const id of [...sorted.slice(1), Number.NaN]) {
    if (id === prev + 1) {
      prev = id;
      continue;
    }
    parts.push(start === prev ? `${start}` : `${start}–${prev}`);
    start = id;
    prev = id;
  }
  return parts.join(', ');
}

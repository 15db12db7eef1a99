import type { Plan, PlanStep } from '../../../shared/plan';
import { buildSteps, type StepDraft } from './create-plan';
import { type EngineOptions, type OpResult, rejected } from './engine-types';
import { isOpen, sealPlan } from './seal';
import { closedError, findStep } from './step-lookup';

/** Where a new step goes: at the end, at the very start, or right after a given step. */
export type Placement = { kind: 'end' } | { kind: 'start' } | { kind: 'after'; stepId: number };

/** Structured add_step: one new step with the next free id, placed as asked. */
export function insertStep(plan: Plan, draft: StepDraft, placement: Placement, options: EngineOptions): OpResult {
  if (!isOpen(plan)) return rejected(closedError(plan));
  const built = buildSteps([{ ...draft, id: undefined }], nextFreeId(plan));
  if (!built.ok) return rejected(built.error);
  const step = built.steps[0] as PlanStep;
  let at = plan.steps.length;
  if (placement.kind === 'start') at = 0;
  if (placement.kind === 'after') {
    const found = findStep(plan, placement.stepId);
    if (!found.ok) return rejected(`Cannot add after step ${placement.stepId}: ${found.error}`);
    at = endOfSubtree(plan.steps, found.index) + 1;
  }
  const steps = [...plan.steps.slice(0, at), step, ...plan.steps.slice(at)];
  return sealPlan({ ...plan, steps }, plan.version, options, `Updated plan: step ${step.id} added`);
}

/**
 * Appends steps (session add_step, WBS items). A step with a parent goes after its parent's last
 * descendant so the list stays in tree order; others go at the end. Drafts may carry ids chosen
 * by the dialect (so later drafts can name earlier ones as parents); the rest get fresh ids.
 */
export function addSteps(plan: Plan, drafts: readonly StepDraft[], options: EngineOptions, change?: string): OpResult {
  if (!isOpen(plan)) return rejected(closedError(plan));
  if (drafts.length === 0) return rejected('No steps to add; give at least one.');
  const built = buildSteps(drafts, nextFreeId(plan));
  if (!built.ok) return rejected(built.error);
  const steps = plan.steps.slice();
  for (const step of built.steps) {
    const parentAt = step.parentId === undefined ? -1 : steps.findIndex((s) => s.id === step.parentId);
    const at = parentAt < 0 ? steps.length : endOfSubtree(steps, parentAt) + 1;
    steps.splice(at, 0, step);
  }
  const ids = built.steps.map((s) => s.id);
  const label = ids.length === 1 ? `step ${ids[0]}` : `steps ${ids[0]}–${ids[ids.length - 1]}`;
  return sealPlan({ ...plan, steps }, plan.version, options, change ?? `Updated plan: ${label} added`);
}

/** Ids are never reused: the next id is past both the stored high-water mark and every live id. */
export function nextFreeId(plan: Plan): number {
  let maxId = 0;
  for (const s of plan.steps) if (s.id > maxId) maxId = s.id;
  return Math.max(plan.nextStepId ?? 1, maxId + 1);
}

/** Index of the last step in the subtree rooted at `rootIndex` (the list is kept in tree order). */
export function endOfSubtree(steps: readonly PlanStep[], rootIndex: number): number {
  const inside = new Set<number>([(steps[rootIndex] as PlanStep).id]);
  let end = rootIndex;
  for (let i = rootIndex + 1; i < steps.length; i++) {
    const parent = (steps[i] as PlanStep).parentId;
    if (parent === undefined || !inside.has(parent)) break;
    inside.add((steps[i] as PlanStep).id);
    end = i;
  }
  return end;
}

import type { Plan, PlanStep, Priority } from '../../../shared/plan';
import { findDependencyCycle } from '../engine/cycle';
import { nextFreeId } from '../engine/add-steps';
import type { StepDraft } from '../engine/create-plan';
import { cleanTitle } from '../engine/titles';
import type { WbsItemInput } from './wbs-schemas';

/**
 * WBS items → plan steps, with the seed's validation in WBS terms (ids like "1.2", not step
 * numbers): unique ids, parent_id required for level > 0, parents added before children and one
 * level up, dependencies that exist, no circular dependencies.
 */
export type Mapped = { ok: true; drafts: StepDraft[] } | { ok: false; error: string };

export function wbsItemsToDrafts(plan: Plan, items: readonly WbsItemInput[]): Mapped {
  const stepOf = new Map<string, number>(plan.steps.map((s) => [s.label ?? String(s.id), s.id]));
  const levelOf = depths(plan.steps);
  let nextId = nextFreeId(plan);
  for (const item of items) {
    if (stepOf.has(item.id)) return fail(`WBS id "${item.id}" already exists; give every item a unique id.`);
    stepOf.set(item.id, nextId++);
  }
  const drafts: StepDraft[] = [];
  for (const item of items) {
    const id = stepOf.get(item.id) as number;
    const title = cleanTitle(item.title, `Item ${item.id}'s title`);
    if (!title.ok) return fail(title.error);
    const parentError = checkParent(item, stepOf, levelOf);
    if (parentError) return fail(parentError);
    const deps: number[] = [];
    for (const dep of item.dependencies ?? []) {
      const depId = stepOf.get(dep);
      if (depId === undefined) return fail(`Dependency "${dep}" of item ${item.id} does not exist. Use the id of an existing WBS item.`);
      deps.push(depId);
    }
    levelOf.set(id, item.level);
    drafts.push({
      id,
      title: title.value,
      description: item.description ?? undefined,
      label: item.id,
      priority: item.priority.toLowerCase() as Priority,
      parentId: item.parent_id == null ? undefined : stepOf.get(item.parent_id),
      dependsOn: deps,
    });
  }
  const cycle = findDependencyCycle([...plan.steps, ...drafts.map((d) => ({ id: d.id as number, dependsOn: d.dependsOn ?? [] }))]);
  if (cycle) {
    const labelOf = new Map([...stepOf].map(([label, id]) => [id, label]));
    return fail(`Circular dependency: ${cycle.map((id) => labelOf.get(id) ?? id).join(' → ')}. Remove one of these dependencies.`);
  }
  return { ok: true, drafts };
}

function checkParent(item: WbsItemInput, stepOf: Map<string, number>, levelOf: Map<number, number>): string | null {
  const parent = item.parent_id ?? undefined;
  if (item.level === 0) {
    return parent === undefined ? null : `Item ${item.id} is level 0 (top level) but has parent_id "${parent}"; remove parent_id or use level 1 or more.`;
  }
  if (parent === undefined) {
    return `parent_id is required for child items (level > 0): item ${item.id} is level ${item.level}. Set parent_id to its parent's WBS id.`;
  }
  const parentStep = stepOf.get(parent);
  // levelOf knows existing items and those added earlier in this batch, not later ones.
  if (parentStep === undefined || !levelOf.has(parentStep)) {
    return `Parent "${parent}" of item ${item.id} not found. Add the parent before its children (earlier in wbs_items or in an earlier step).`;
  }
  const parentLevel = levelOf.get(parentStep) ?? 0;
  if (item.level !== parentLevel + 1) {
    return `Item ${item.id} is level ${item.level} but its parent ${parent} is level ${parentLevel}; use level ${parentLevel + 1}.`;
  }
  return null;
}

/** Depth of every existing step in the hierarchy (0 for top level). */
function depths(steps: readonly PlanStep[]): Map<number, number> {
  const levels = new Map<number, number>();
  for (const step of steps) {
    // Parents precede children, so the parent's depth is already known.
    levels.set(step.id, step.parentId === undefined ? 0 : (levels.get(step.parentId) ?? 0) + 1);
  }
  return levels;
}

function fail(error: string): Mapped {
  return { ok: false, error };
}

import type { Plan, PlanStep } from '../../../shared/plan';
import { editClause, type PlanEditRecord, type UserEdit } from '../../../shared/plan-edit';
import { nextFreeId } from './add-steps';
import { stepFromDraft } from './create-plan';
import type { EditDraft } from './edit-draft';
import { type EngineOptions, type OpResult, rejected, unchanged } from './engine-types';
import { sealPlan } from './seal';
import { findStep, replaceStep } from './step-lookup';
import { cleanTitle } from './titles';
import { moveStep } from './user-move';

/**
 * The user's edits of a plan (docs/contract.md §2): add, rename, skip, delete a pending step, reorder
 * pending steps. Each is an engine change like Claude's: validated by the same rules, versioned,
 * recorded on the plan (so Claude can be told, and its contradicting calls refused), announced.
 * An edit names the version it was made on; on a newer plan it is applied again when nobody
 * touched the same steps since, and refused with the reason otherwise.
 */

export interface UserEditRequest {
  planId: string;
  /** The plan version the user saw. */
  version: number;
  edit: UserEdit;
}

/** How many edits a plan remembers (the notes to Claude and the checklist's contradiction check read them). */
const MAX_EDITS = 50;

export function applyUserEdit(plan: Plan | null, request: UserEditRequest, options: EngineOptions): OpResult {
  if (!plan) return rejected('There is no plan to edit in this chat.');
  const refusal = targetError(plan, request);
  if (refusal) return rejected(refusal);
  const draft = draftEdit(plan, request.edit);
  if (!draft.ok) return rejected(draft.error);
  if ('unchanged' in draft) return unchanged(plan);
  const record: PlanEditRecord = { ...draft.record, version: plan.version + 1, at: options.now().toISOString() };
  const candidate: Plan = {
    ...plan,
    steps: draft.steps,
    edits: [...(plan.edits ?? []), record].slice(-MAX_EDITS),
    ...(draft.nextStepId ? { nextStepId: draft.nextStepId } : {}),
  };
  return sealPlan(candidate, plan.version, options, draft.summary);
}

function targetError(plan: Plan, request: UserEditRequest): string | null {
  if (plan.id !== request.planId) return 'Claude replaced the plan since you looked at it, so your edit was not applied. Edit the new plan.';
  if (plan.status !== 'active') {
    const how = plan.status === 'cancelled' ? 'cancelled' : `finished (${plan.status})`;
    return `This plan is ${how}, so it can't be edited any more.`;
  }
  if (request.version > plan.version) return `Your edit names version ${request.version}, but the plan is at version ${plan.version}. Reload the chat and edit again.`;
  if (request.version < plan.version) {
    const clashes = editsSince(plan, request.version).filter((later) => clashesWith(later, request.edit));
    if (clashes.length > 0) {
      return `The plan changed since you looked at it (${clashes.map(editClause).join('; ')}), so your edit was not applied. Look at the plan as it is now and edit again.`;
    }
  }
  return null;
}

/** The user's edits made after `version`, oldest first. */
export function editsSince(plan: Plan, version: number): PlanEditRecord[] {
  return (plan.edits ?? []).filter((edit) => edit.version > version);
}

/**
 * A later edit the user did not see makes theirs stale when it touched the same step, or, under a
 * move, changed which steps are pending or their order (the neighbour they meant may be another).
 */
function clashesWith(later: PlanEditRecord, edit: UserEdit): boolean {
  if (edit.kind === 'add') return false;
  if (later.stepId === edit.stepId || later.swappedWith === edit.stepId) return true;
  return edit.kind === 'move' && later.kind !== 'rename';
}

function draftEdit(plan: Plan, edit: UserEdit): EditDraft {
  if (edit.kind === 'add') return addStep(plan, edit.title);
  const found = findStep(plan, edit.stepId);
  if (!found.ok) return { ok: false, error: found.error.replace(/ Existing steps:.*$/, '') };
  const { step, index } = found;
  switch (edit.kind) {
    case 'rename':
      return renameStep(plan, step, index, edit.title);
    case 'skip':
      return skipStep(plan, step, index);
    case 'delete':
      return deleteStep(plan, step, index);
    case 'move':
      return moveStep(plan, index, edit.direction);
  }
}

function renameStep(plan: Plan, step: PlanStep, index: number, raw: string): EditDraft {
  if (step.status === 'completed' || step.status === 'skipped') {
    return { ok: false, error: `Step ${step.id} is already ${step.status}; only a step still to do can be renamed.` };
  }
  const title = cleanTitle(raw, 'The new title');
  if (!title.ok) return { ok: false, error: title.error };
  if (title.value === step.title) return { ok: true, unchanged: true };
  return {
    ok: true,
    steps: replaceStep(plan, index, { ...step, title: title.value }).steps,
    record: { kind: 'rename', stepId: step.id, title: title.value, from: step.title },
    summary: `You renamed step ${step.id} (was ${JSON.stringify(step.title)})`,
  };
}

function skipStep(plan: Plan, step: PlanStep, index: number): EditDraft {
  if (step.status === 'completed' || step.status === 'skipped') {
    return { ok: false, error: `Step ${step.id} is already ${step.status}; there is nothing to skip.` };
  }
  return {
    ok: true,
    steps: replaceStep(plan, index, { ...step, status: 'skipped', reason: 'Skipped by the user.' }).steps,
    record: { kind: 'skip', stepId: step.id, title: step.title },
    summary: `You skipped step ${step.id}`,
  };
}

function deleteStep(plan: Plan, step: PlanStep, index: number): EditDraft {
  if (step.status !== 'pending') {
    return { ok: false, error: `Step ${step.id} is ${step.status.replace('_', ' ')}; only a pending step can be deleted (skip it instead).` };
  }
  // A plan without steps would vanish from the panel with no way back.
  if (plan.steps.length === 1) return { ok: false, error: `Step ${step.id} is the plan's only step, so it can't be deleted (skip it instead).` };
  const children = plan.steps.filter((s) => s.parentId === step.id).map((s) => s.id);
  if (children.length > 0) return { ok: false, error: `Step ${step.id} has sub-steps (${children.join(', ')}); delete them first.` };
  const dependent = plan.steps.find((s) => s.dependsOn.includes(step.id));
  if (dependent) {
    return { ok: false, error: `Step ${dependent.id} "${dependent.title}" depends on step ${step.id}, so step ${step.id} can't be deleted.` };
  }
  return {
    ok: true,
    steps: [...plan.steps.slice(0, index), ...plan.steps.slice(index + 1)],
    record: { kind: 'delete', stepId: step.id, title: step.title },
    summary: `You deleted step ${step.id} ${JSON.stringify(step.title)}`,
    // The id stays used: the next step gets a new one.
    nextStepId: nextFreeId(plan),
  };
}

function addStep(plan: Plan, raw: string): EditDraft {
  const title = cleanTitle(raw, "The new step's title");
  if (!title.ok) return { ok: false, error: title.error };
  // One more than the highest id the plan has ever used.
  const id = nextFreeId(plan);
  return {
    ok: true,
    steps: [...plan.steps, stepFromDraft(id, title.value, { title: title.value })],
    record: { kind: 'add', stepId: id, title: title.value },
    summary: `You added step ${id}`,
    nextStepId: id + 1,
  };
}

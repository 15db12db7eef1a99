import type { Plan, PlanStep, StepStatus } from '../../../shared/plan';
import { stepFromDraft } from './create-plan';
import { type EngineOptions, MAX_TEXT_LENGTH, type OpResult, rejected, unchanged } from './engine-types';
import { nextFreeId } from './add-steps';
import { isOpen, sealPlan } from './seal';
import { sealStepChanges } from './seal-step';
import { closedError } from './step-lookup';
import { looksLikeVerification, verificationError } from './step-calls';
import { cleanText, cleanTitle } from './titles';
import { skippedByUser } from './user-marks';

export interface ListItem {
  title: string;
  status: StepStatus;
}

/**
 * Checklist rewrite: the whole list is given each call. A step whose trimmed text is unchanged
 * keeps its id (and its notes and history); new text gets a new id, never a reused one. A step
 * the user skipped stays skipped where it was: the list leaves it out (naming it is refused).
 */
export function rewriteSteps(plan: Plan, items: readonly ListItem[], explanation: string | undefined, options: EngineOptions): OpResult {
  if (!isOpen(plan)) return rejected(closedError(plan));
  const byTitle = new Map<string, PlanStep[]>();
  for (const step of plan.steps) {
    const same = byTitle.get(step.title);
    if (same) same.push(step);
    else byTitle.set(step.title, [step]);
  }
  let nextId = nextFreeId(plan);
  const steps: PlanStep[] = [];
  for (const [index, item] of items.entries()) {
    const title = cleanTitle(item.title, `Step ${index + 1}`);
    if (!title.ok) return rejected(title.error);
    const previous = byTitle.get(title.value)?.shift();
    if (previous && skippedByUser(plan, previous)) {
      return rejected(`The user skipped step ${previous.id} "${previous.title}": leave it out of the list (it stays skipped in the plan).`);
    }
    // An unchanged step is the previous (frozen) object itself: only changed steps are copied.
    const kept = previous && previous.status === item.status ? previous : previous ? { ...previous, status: item.status } : undefined;
    const step = kept ?? stepFromDraft(nextId++, title.value, { title: title.value, status: item.status, isVerification: looksLikeVerification(title.value) || undefined });
    const unverified = step.status === 'completed' && previous?.status !== 'completed' ? verificationError(step) : null;
    if (unverified) return rejected(unverified);
    steps.push(step);
  }
  keepSkippedByUser(plan, steps);
  const text = cleanText(explanation, MAX_TEXT_LENGTH) ?? plan.explanation;
  const candidate: Plan = { ...plan, steps, nextStepId: nextId, ...(text ? { explanation: text } : {}) };
  if (sameList(plan, candidate)) return unchanged(plan);
  const change = `Updated plan: ${describeChanges(plan.steps, steps)}`;
  const changed = statusOnly(plan.steps, steps);
  return changed ? sealStepChanges(plan, candidate, changed, options, change) : sealPlan(candidate, plan.version, options, change);
}

/** Steps the user skipped that the list left out go back where they were: after the step that preceded them. */
function keepSkippedByUser(plan: Plan, steps: PlanStep[]): void {
  let anchor: number | null = null; // the id of the last step of the old list that the new one holds
  for (const step of plan.steps) {
    const listed = steps.some((s) => s.id === step.id);
    if (!listed && skippedByUser(plan, step)) {
      steps.splice(anchor === null ? 0 : steps.findIndex((s) => s.id === anchor) + 1, 0, step);
    }
    if (listed || skippedByUser(plan, step)) anchor = step.id;
  }
}

/** The indices whose status changed, when the list is otherwise the same steps in the same order. */
function statusOnly(before: readonly PlanStep[], after: readonly PlanStep[]): number[] | null {
  if (before.length !== after.length) return null;
  const changed: number[] = [];
  for (let i = 0; i < after.length; i++) {
    if ((before[i] as PlanStep).id !== (after[i] as PlanStep).id) return null;
    if (before[i] !== after[i]) changed.push(i);
  }
  return changed;
}

function sameList(a: Plan, b: Plan): boolean {
  return (
    a.explanation === b.explanation &&
    a.steps.length === b.steps.length &&
    a.steps.every((s, i) => s.id === b.steps[i]?.id && s.status === b.steps[i]?.status) // small lists (≤ 12)
  );
}

const VERB: Record<StepStatus, string> = {
  pending: 'pending',
  in_progress: 'started',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

/** "step 2 completed, step 3 started" — the transcript line for a rewrite. */
function describeChanges(before: readonly PlanStep[], after: readonly PlanStep[]): string {
  const old = new Map(before.map((s) => [s.id, s]));
  const parts: string[] = [];
  for (const step of after) {
    const prev = old.get(step.id);
    if (!prev) parts.push(`step ${step.id} added`);
    else if (prev.status !== step.status) parts.push(`step ${step.id} ${VERB[step.status]}`);
  }
  const kept = new Set<number>();
  for (const a of after) kept.add(a.id);
  let removed = 0;
  for (const s of before) if (!kept.has(s.id)) removed++;
  if (removed > 0) parts.push(`${removed} step${removed === 1 ? '' : 's'} removed`);
  return parts.length > 0 ? parts.slice(0, 4).join(', ') + (parts.length > 4 ? ', …' : '') : 'steps reordered';
}

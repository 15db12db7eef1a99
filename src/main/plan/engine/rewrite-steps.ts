import type { Plan, PlanStep, StepStatus } from '../../../shared/plan';
import { stepFromDraft } from './create-plan';
import { type EngineOptions, MAX_TEXT_LENGTH, type OpResult, rejected, unchanged } from './engine-types';
import { nextFreeId } from './add-steps';
import { isOpen, sealPlan } from './seal';
import { sealStepChanges } from './seal-step';
import { closedError } from './step-lookup';
import { cleanText, cleanTitle } from './titles';

export interface ListItem {
  title: string;
  status: StepStatus;
}

/**
 * Checklist rewrite: the whole list is given each call. A step whose trimmed text is unchanged
 * keeps its id (and its notes and history); new text gets a new id, never a reused one.
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
    // An unchanged step is the previous (frozen) object itself: only changed steps are copied.
    const kept = previous && previous.status === item.status ? previous : previous ? { ...previous, status: item.status } : undefined;
    steps.push(kept ?? stepFromDraft(nextId++, title.value, { title: title.value, status: item.status }));
  }
  const text = cleanText(explanation, MAX_TEXT_LENGTH) ?? plan.explanation;
  const candidate: Plan = { ...plan, steps, nextStepId: nextId, ...(text ? { explanation: text } : {}) };
  if (sameList(plan, candidate)) return unchanged(plan);
  const change = `Updated plan: ${describeChanges(plan.steps, steps)}`;
  const changed = statusOnly(plan.steps, steps);
  return changed ? sealStepChanges(plan, candidate, changed, options, change) : sealPlan(candidate, plan.version, options, change);
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

import type { Dialect, Plan, PlanStep, Priority, StepStatus } from '../../../shared/plan';
import { type EngineOptions, MAX_GOAL_LENGTH, MAX_STEPS, MAX_TEXT_LENGTH, type OpResult, rejected } from './engine-types';
import { sealPlan } from './seal';
import { cleanText, cleanTitle } from './titles';

/** A step as a dialect describes it before the engine checks it. */
export interface StepDraft {
  /** Explicit id (structured step_number); omitted ids are numbered on from the largest. */
  id?: number;
  title: string;
  description?: string;
  status?: StepStatus;
  parentId?: number;
  dependsOn?: readonly number[];
  priority?: Priority;
  successCriteria?: string;
  toolsToUse?: readonly string[];
  isVerification?: boolean;
  label?: string;
}

export interface PlanDraft {
  id: string;
  dialect: Dialect;
  goal: string;
  explanation?: string;
  steps: readonly StepDraft[];
  verificationApproach?: string;
  rollbackStrategy?: string;
  estimatedToolCalls?: number;
}

/**
 * A new plan (or the replacement of the session's plan). `previousVersion` is the version of the
 * plan it replaces, so versions keep rising across replacements within a session.
 */
export function createPlan(draft: PlanDraft, previousVersion: number, options: EngineOptions): OpResult {
  const goal = cleanTitle(draft.goal, 'The goal', MAX_GOAL_LENGTH);
  if (!goal.ok) return rejected(goal.error);
  if (draft.steps.length > MAX_STEPS) return rejected(`A plan may have at most ${MAX_STEPS} steps; got ${draft.steps.length}. Merge steps.`);
  const steps = buildSteps(draft.steps, 1);
  if (!steps.ok) return rejected(steps.error);
  const now = options.now().toISOString();
  const plan: Plan = {
    id: draft.id,
    dialect: draft.dialect,
    goal: goal.value,
    explanation: cleanText(draft.explanation, MAX_TEXT_LENGTH),
    status: 'active',
    steps: steps.steps,
    version: previousVersion,
    createdAt: now,
    updatedAt: now,
    verificationApproach: cleanText(draft.verificationApproach, MAX_TEXT_LENGTH),
    rollbackStrategy: cleanText(draft.rollbackStrategy, MAX_TEXT_LENGTH),
    estimatedToolCalls: draft.estimatedToolCalls,
    summary: { total: 0, completed: 0, in_progress: 0, pending: 0, failed: 0, skipped: 0, percent: 0 },
  };
  const n = plan.steps.length;
  return sealPlan(dropUndefined(plan), previousVersion, options, `Created plan: ${n} step${n === 1 ? '' : 's'}`);
}

type Built = { ok: true; steps: PlanStep[] } | { ok: false; error: string };

/** Drafts → steps with trimmed titles; ids given explicitly must be unique positive integers. */
export function buildSteps(drafts: readonly StepDraft[], firstFreeId: number): Built {
  const taken = new Set<number>();
  for (const d of drafts) {
    if (d.id === undefined) continue;
    if (!Number.isInteger(d.id) || d.id < 1) return { ok: false, error: `Step numbers must be positive integers; got ${d.id}.` };
    if (taken.has(d.id)) return { ok: false, error: `Step number ${d.id} is used twice; give every step its own number.` };
    taken.add(d.id);
  }
  let next = Math.max(firstFreeId, [...taken].reduce((max, id) => Math.max(max, id), 0) + 1);
  const steps: PlanStep[] = [];
  for (const [index, d] of drafts.entries()) {
    const id = d.id ?? next++;
    const title = cleanTitle(d.title, `Step ${d.id ?? index + 1}'s title`);
    if (!title.ok) return { ok: false, error: title.error };
    steps.push(stepFromDraft(id, title.value, d));
  }
  return { ok: true, steps };
}

export function stepFromDraft(id: number, title: string, d: StepDraft): PlanStep {
  return dropUndefined({
    id,
    title,
    description: cleanText(d.description, MAX_TEXT_LENGTH),
    status: d.status ?? 'pending',
    parentId: d.parentId,
    dependsOn: [...new Set(d.dependsOn ?? [])],
    priority: d.priority,
    successCriteria: cleanText(d.successCriteria, MAX_TEXT_LENGTH),
    toolsToUse: d.toolsToUse ? [...d.toolsToUse] : undefined,
    isVerification: d.isVerification,
    notes: [],
    attempts: [],
    label: d.label,
  });
}

/** Keep snapshots free of `key: undefined` so JSON round-trips compare deep-equal. */
export function dropUndefined<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as T;
}

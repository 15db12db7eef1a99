import type { Plan, PlanStep } from '../../../shared/plan';

/**
 * The compact text form of a plan that goes back to Claude in tool results, so it always sees
 * the true state (ids, statuses, what is next) without a large payload.
 */
export const STATUS_MARK: Record<PlanStep['status'], string> = {
  pending: '[ ]',
  in_progress: '[>]',
  completed: '[x]',
  failed: '[!]',
  skipped: '[-]',
};
const MAX_LISTED = 40;

export function planView(plan: Plan): string {
  const s = plan.summary;
  const head = `Plan v${plan.version} (${plan.status}) "${plan.goal}": ${s.completed}/${s.total} steps completed (${s.percent}%)`;
  const lines: string[] = [];
  for (const step of plan.steps) {
    if (lines.length === MAX_LISTED) break;
    lines.push(stepLine(step));
  }
  if (plan.steps.length > MAX_LISTED) lines.push(`… ${plan.steps.length - MAX_LISTED} more`);
  const next = nextHint(plan);
  return [head, ...lines, ...(next ? [next] : [])].join('\n');
}

/**
 * The short answer to a one-step update: version, status and counts, the changed step and what
 * is next. The model already holds the rest of the plan from earlier results; repeating all of
 * it on every call made each request grow by the whole plan (cost, and a smaller cached share).
 */
export function stepUpdateView(plan: Plan, stepId: number | undefined): string {
  const s = plan.summary;
  let step: PlanStep | undefined;
  for (const x of plan.steps) if (x.id === stepId) step = x; // a loop: see engine/step-lookup.ts
  const head = `Plan v${plan.version} (${plan.status}): ${s.completed}/${s.total} steps completed (${s.percent}%)`;
  const next = nextHint(plan);
  return [head, ...(step ? [stepLine(step)] : []), ...(next ? [next] : [])].join('\n');
}

function stepLine(step: PlanStep): string {
  const deps = step.dependsOn.length > 0 ? ` (after ${step.dependsOn.join(', ')})` : '';
  return `${STATUS_MARK[step.status]} ${step.label ?? step.id}. ${step.title}${deps}`;
}

/** The step to work on next, so the model marks progress in order. */
export function nextHint(plan: Plan): string | null {
  if (plan.status !== 'active') return null;
  const done = new Set<number>();
  for (const s of plan.steps) {
    if (s.status === 'in_progress') return `Current: step ${s.id}.`;
    if (s.status === 'completed' || s.status === 'skipped') done.add(s.id);
  }
  for (const s of plan.steps) {
    if (s.status === 'pending' && s.dependsOn.every((d) => done.has(d))) return `Next: step ${s.id}.`;
  }
  return null;
}

import type { Plan, PlanStep } from '../../../shared/plan';

/**
 * The compact text form of a plan that goes back to Claude in tool results, so it always sees
 * the true state (ids, statuses, what is next) without a large payload.
 */
const MARK: Record<PlanStep['status'], string> = {
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
  const lines = plan.steps.slice(0, MAX_LISTED).map((step) => {
    const deps = step.dependsOn.length > 0 ? ` (after ${step.dependsOn.join(', ')})` : '';
    return `${MARK[step.status]} ${step.label ?? step.id}. ${step.title}${deps}`;
  });
  if (plan.steps.length > MAX_LISTED) lines.push(`… ${plan.steps.length - MAX_LISTED} more`);
  const next = nextHint(plan);
  return [head, ...lines, ...(next ? [next] : [])].join('\n');
}

/** The step to work on next, so the model marks progress in order. */
export function nextHint(plan: Plan): string | null {
  if (plan.status !== 'active') return null;
  const running = plan.steps.find((s) => s.status === 'in_progress');
  if (running) return `Current: step ${running.id}.`;
  const done = new Set(plan.steps.filter((s) => s.status === 'completed' || s.status === 'skipped').map((s) => s.id));
  const ready = plan.steps.find((s) => s.status === 'pending' && s.dependsOn.every((d) => done.has(d)));
  return ready ? `Next: step ${ready.id}.` : null;
}

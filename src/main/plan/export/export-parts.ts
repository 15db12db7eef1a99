import type { Plan, PlanCompletion, PlanStep } from '../../../shared/plan';
import { markdownLine } from '../../common/markdown-safety';
import { STATUS_MARK } from '../dialects/plan-view';

/** Pieces every dialect's export shares: the status line, the legend, completion and undo sections. */

export { STATUS_MARK };

export const STATUS_WORD: Record<PlanStep['status'], string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

const PLAN_WORD: Record<Plan['status'], string> = {
  active: 'active',
  completed: 'completed',
  partial: 'partly completed',
  failed: 'failed',
  cancelled: 'aborted',
};

const OUTCOME_WORD: Record<PlanCompletion['status'], string> = {
  success: 'success',
  partial_success: 'partial success',
  failed: 'failed',
};

export const LEGEND = `Legend: ${(['completed', 'in_progress', 'pending', 'failed', 'skipped'] as const).map((s) => `${STATUS_MARK[s]} ${STATUS_WORD[s]}`).join(' · ')}`;

/** "**Status:** active — 2 of 5 steps completed (40%), 1 in progress, 1 failed, 1 pending" */
export function statusLine(plan: Plan): string {
  const s = plan.summary;
  const counts = [`${s.completed} of ${s.total} steps completed (${s.percent}%)`];
  if (s.in_progress) counts.push(`${s.in_progress} in progress`);
  if (s.failed) counts.push(`${s.failed} failed`);
  if (s.skipped) counts.push(`${s.skipped} skipped`);
  if (s.pending) counts.push(`${s.pending} pending`);
  return `**Status:** ${plan.undone ? 'undone' : PLAN_WORD[plan.status]} — ${counts.join(', ')}`;
}

/**
 * Claude's or the user's words in one line of the export: kept as written, except what would add
 * structure to the file (a line break, raw HTML, a heading or list at its start; docs/security.md).
 */
export const oneLine = markdownLine;

/** " — skipped: the reason" / " — completed: the result" after a step. */
export function statusSuffix(step: PlanStep): string {
  const why = step.status === 'completed' ? step.result : step.reason;
  return ` — ${STATUS_WORD[step.status]}${why ? `: ${oneLine(why)}` : ''}`;
}

/** Claude's complete_plan summary and "Undo plan", when the plan has them. */
export function closingSections(plan: Plan): string[] {
  const lines: string[] = [];
  const c = plan.completion;
  if (c) {
    lines.push('', '## Completion', '', `**Outcome:** ${OUTCOME_WORD[c.status]}`, '', oneLine(c.summary));
    if (c.issues.length) lines.push('', '### Issues', '', ...c.issues.map((issue) => `- ${oneLine(issue)}`));
    if (c.recommendations) lines.push('', '### Recommendations', '', oneLine(c.recommendations));
  }
  const u = plan.undone;
  if (u) {
    const parts = [
      u.restored.length ? `restored ${u.restored.map(oneLine).join(', ')}` : '',
      u.deleted.length ? `removed ${u.deleted.map(oneLine).join(', ')}` : '',
      u.skipped.length ? `left ${u.skipped.map(oneLine).join(', ')} as it is (changed outside Waypoint)` : '',
    ].filter(Boolean);
    lines.push('', '## Undone', '', `"Undo plan" on ${u.at}: ${parts.length ? parts.join('; ') : 'no files to change'}. No step counts as done.`);
  }
  return lines;
}

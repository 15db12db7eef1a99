import type { CallOutput } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { exportMarkdown } from './export/export-markdown';
import { UserFacingError } from '../common/errors';

/** "Export plan": the plan as Markdown in its dialect's own shape, with a file name from its goal. */
export function exportPlanMarkdown(plan: Plan | null): CallOutput<'exportPlan'> {
  if (!plan) throw new UserFacingError('not_found', 'This chat has no plan to export yet.');
  const slug = plan.goal
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return { markdown: exportMarkdown(plan), fileName: `${slug || 'plan'}-plan.md`, savedTo: null };
}

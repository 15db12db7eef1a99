import type { CallOutput } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { planToMarkdown } from '../plan/plan-markdown';
import { UserFacingError } from './call-router';

/** "Export plan": the plan as Markdown in the WBS.md format, with a file name from its goal. */
export function exportPlanMarkdown(plan: Plan | null): CallOutput<'exportPlan'> {
  if (!plan) throw new UserFacingError('not_found', 'This chat has no plan to export yet.');
  const slug = plan.goal
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return { markdown: planToMarkdown(plan), fileName: `${slug || 'plan'}-plan.md`, savedTo: null };
}

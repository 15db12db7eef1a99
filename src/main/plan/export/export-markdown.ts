import type { Dialect, Plan } from '../../../shared/plan';
import { planToMarkdown } from '../plan-markdown';
import { checklistMarkdown } from './checklist-export';
import { closingSections } from './export-parts';
import { sessionMarkdown } from './session-export';
import { structuredMarkdown } from './structured-export';

/** "Export plan": each dialect's plan in its own shape (issue 12, item 13), every status marked. */
const EXPORTERS: Record<Dialect, (plan: Plan) => string> = {
  structured: structuredMarkdown,
  checklist: checklistMarkdown,
  session: sessionMarkdown,
  // WBS.md as the seed writes it, then how the plan ended.
  wbs: (plan) => `${planToMarkdown(plan).trimEnd()}\n${closingSections(plan).join('\n')}\n`.replace(/\n+$/, '\n'),
};

export function exportMarkdown(plan: Plan): string {
  return EXPORTERS[plan.dialect](plan);
}

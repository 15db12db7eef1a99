import type { Plan, PlanStep } from '../../../shared/plan';
import { closingSections, oneLine, STATUS_WORD, statusLine } from './export-parts';

/**
 * The session dialect's plan ("Planning Tool Suite" seed) as Markdown: the objective, and a
 * table of stable step ids, titles and statuses in the seed's words ("done" for completed;
 * steps recovery skipped or failed say so).
 */
export function sessionMarkdown(plan: Plan): string {
  const lines = [`# Objective: ${oneLine(plan.goal)}`, '', statusLine(plan), '', '| ID | Step | Status |', '| --- | --- | --- |'];
  lines.push(...plan.steps.map((step) => `| ${step.id} | ${cell(step.title)} | ${cell(statusOf(step))} |`));
  lines.push(...closingSections(plan));
  return `${lines.join('\n')}\n`;
}

function statusOf(step: PlanStep): string {
  const word = step.status === 'completed' ? 'done' : step.status === 'in_progress' ? 'in_progress' : STATUS_WORD[step.status];
  return step.reason && step.status !== 'completed' ? `${word}: ${oneLine(step.reason)}` : word;
}

/** Pipes would end the cell early. */
function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

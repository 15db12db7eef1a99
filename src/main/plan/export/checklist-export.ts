import type { Plan } from '../../../shared/plan';
import { closingSections, LEGEND, oneLine, STATUS_MARK, statusLine, statusSuffix } from './export-parts';

/**
 * The checklist dialect's plan ("Planning System" seed: update_plan with the whole list) as
 * Markdown: its explanation and the list of {step, status}, each status with its own mark.
 */
export function checklistMarkdown(plan: Plan): string {
  const lines = [`# ${oneLine(plan.goal)}`, ''];
  if (plan.explanation && plan.explanation !== plan.goal) lines.push(oneLine(plan.explanation), '');
  lines.push(statusLine(plan), `**Version:** ${plan.version}`, '', LEGEND, '');
  lines.push(...plan.steps.map((step) => `- ${STATUS_MARK[step.status]} ${oneLine(step.title)}${statusSuffix(step)}`));
  lines.push(...closingSections(plan));
  return `${lines.join('\n')}\n`;
}

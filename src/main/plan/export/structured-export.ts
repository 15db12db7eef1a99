import type { Plan, PlanStep } from '../../../shared/plan';
import { closingSections, LEGEND, oneLine, STATUS_MARK, statusLine, statusSuffix } from './export-parts';

/**
 * The structured dialect's plan (seed P4-02) as Markdown: the goal, each step with what
 * create_plan gave it (tools, success criteria, dependencies) and what happened to it, then the
 * verification approach, rollback strategy, estimate and complete_plan's summary.
 */
export function structuredMarkdown(plan: Plan): string {
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const lines = [`# Plan: ${oneLine(plan.goal)}`, '', statusLine(plan)];
  if (plan.explanation && plan.explanation !== plan.goal) lines.push('', oneLine(plan.explanation));
  lines.push('', '## Steps', '', LEGEND, '', ...plan.steps.flatMap((step) => stepLines(step, byId)));
  if (plan.verificationApproach) lines.push('', '## Verification approach', '', oneLine(plan.verificationApproach));
  if (plan.rollbackStrategy) lines.push('', '## Rollback strategy', '', oneLine(plan.rollbackStrategy));
  if (plan.estimatedToolCalls !== undefined) lines.push('', `**Estimated tool calls:** ${plan.estimatedToolCalls}`);
  lines.push(...closingSections(plan));
  return `${lines.join('\n')}\n`;
}

function stepLines(step: PlanStep, byId: Map<number, PlanStep>): string[] {
  const detail: string[] = [];
  if (step.toolsToUse?.length) detail.push(`Tools: ${step.toolsToUse.map(oneLine).join(', ')}`);
  if (step.successCriteria) detail.push(`Success criteria: ${oneLine(step.successCriteria)}`);
  if (step.dependsOn.length) detail.push(`Depends on: ${step.dependsOn.map((id) => `${id}${byId.get(id) ? ` ("${oneLine(byId.get(id)!.title)}")` : ''}`).join(', ')}`);
  if (step.priority) detail.push(`Priority: ${step.priority}`);
  if (step.isVerification) detail.push('Verification step');
  for (const note of step.notes) detail.push(`Note: ${oneLine(note)}`);
  if (step.attempts.length) {
    const last = step.attempts.at(-1)!;
    detail.push(`Attempts: ${step.attempts.length} (last: ${oneLine(last.tool)}, ${last.errorClass.replace(/_/g, ' ')}, ${last.outcome})`);
  }
  return [`- ${STATUS_MARK[step.status]} **${step.id}. ${oneLine(step.title)}**${statusSuffix(step)}`, ...detail.map((d) => `  - ${d}`)];
}

import type { Plan, PlanStep } from '../../shared/plan';
import { markdownLine as oneLine } from '../common/markdown-safety';
import { STATUS_MARK } from './dialects/plan-view';

/**
 * A plan as Markdown in the WBS.md format of the "Planning Tool - Multi-Action" seed: project
 * header, problem statement, a nested checkbox list, and the planning summary. Used for the WBS
 * dialect's WBS.md and for "Export plan" of any dialect.
 */
export interface MarkdownOptions {
  /** "Steps" in the Planning Summary: planning_add_step calls for WBS; defaults to the step count. */
  planningSteps?: number;
}

export function planToMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const lines = [
    `# Project: ${oneLine(plan.goal)}`,
    '',
    '## Problem Statement',
    oneLine(plan.explanation ?? plan.goal),
    '',
    '## Work Breakdown Structure',
    '',
    ...(plan.steps.length === 0 ? ['*No WBS items yet*'] : itemLines(plan.steps)),
    '',
    '## Planning Summary',
    '',
    `- **Steps**: ${options.planningSteps ?? plan.steps.length}`,
    `- **WBS Items**: ${plan.steps.length}`,
    `- **Status**: ${plan.status}`,
  ];
  return `${lines.join('\n')}\n`;
}

const SUFFIX: Record<PlanStep['status'], string> = {
  pending: '',
  completed: '',
  in_progress: ' — in progress',
  failed: ' — failed',
  skipped: ' — skipped',
};

function itemLines(steps: readonly PlanStep[]): string[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const children = new Map<number, PlanStep[]>();
  const roots: PlanStep[] = [];
  for (const step of steps) {
    const parent = step.parentId === undefined ? undefined : byId.get(step.parentId);
    if (!parent) roots.push(step);
    else children.set(parent.id, [...(children.get(parent.id) ?? []), step]);
  }

  const render = (step: PlanStep, depth: number): string[] => {
    const indent = '  '.repeat(depth);
    // The seed's checkboxes, with a mark of its own for each status (an in-progress step is not "[ ]").
    const box = STATUS_MARK[step.status];
    const priority = step.priority ? ` (Priority: ${step.priority[0]?.toUpperCase()}${step.priority.slice(1)})` : '';
    const out = [`${indent}- ${box} **${oneLine(step.title)}**${priority}${SUFFIX[step.status]}`, `${indent}  - ID: ${oneLine(String(step.label ?? step.id))}`];
    if (step.description) out.push(`${indent}  - Description: ${oneLine(step.description)}`);
    if (depth > 0 || step.dependsOn.length > 0) {
      const deps = step.dependsOn.map((id) => {
        const dep = byId.get(id);
        return dep ? `${oneLine(String(dep.label ?? dep.id))} (${oneLine(dep.title)})` : `${id}`;
      });
      out.push(`${indent}  - Dependencies: ${deps.length > 0 ? deps.join(', ') : 'None'}`);
    }
    if (step.result) out.push(`${indent}  - Result: ${oneLine(step.result)}`);
    if (step.reason) out.push(`${indent}  - Reason: ${oneLine(step.reason)}`);
    const kids = children.get(step.id) ?? [];
    if (kids.length > 0) out.push(`${indent}  `, ...joinBlocks(kids.map((kid) => render(kid, depth + 1))));
    return out;
  };
  return joinBlocks(roots.map((root) => render(root, 0)));
}

/** Sibling blocks are separated by one empty line, as in the seed's example. */
function joinBlocks(blocks: string[][]): string[] {
  return blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block]));
}

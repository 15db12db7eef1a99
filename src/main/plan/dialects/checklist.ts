import { z } from 'zod';
import { optionalField } from '../../tools/json-schema';
import { fail, ok, type ToolDefinition } from '../../tools/tool';
import { createPlan } from '../engine/create-plan';
import type { OpResult } from '../engine/engine-types';
import { rewriteSteps } from '../engine/rewrite-steps';
import { looksLikeVerification } from '../engine/step-calls';
import { isOpen } from '../engine/seal';
import { contradictionError } from './checklist-edits';
import { type DialectDeps, newPlanId } from './dialect-deps';
import { countOf, jsonContent, PLANNING } from './tool-kit';
import { defineTool } from '../../tools/define-tool';

/** The "Planning System" seed: one update_plan that rewrites the whole list (1–12 steps). */

const MIN_STEPS = 1;
const MAX_STEPS = 12;

const Input = z.object({
  explanation: optionalField(z.string()).describe('Optional plan summary'),
  plan: z
    .array(
      z.object({
        step: z.string().describe('Step description'),
        status: z.enum(['pending', 'in_progress', 'completed']),
      }),
    )
    .min(MIN_STEPS, `a plan needs ${MIN_STEPS}-${MAX_STEPS} steps`)
    .max(MAX_STEPS, `a plan may have at most ${MAX_STEPS} steps; merge some`)
    .describe('The whole plan, every call: 1-12 steps, at most one in_progress'),
});

export function checklistTools(deps: DialectDeps): ToolDefinition[] {
  const tool = defineTool({
    ...PLANNING,
    name: 'update_plan',
    description:
      'Create or update your task plan. Send the whole list every time: 1-12 short steps, each pending, in_progress or completed, with only one in_progress. Mark a step in_progress when you start it and completed as soon as it is done.',
    input: Input,
    usage: 'Example: {"plan": [{"step": "Write tests", "status": "in_progress"}]}.',
    summarize: (input) => `Update plan (${countOf(input.plan)} steps)`,
    describeDryRun: (input) => `Would update plan with ${countOf(input.plan)} steps.`,
    execute: (input, ctx) => {
      const items = input.plan.map((p) => ({ title: p.step, status: p.status }));
      const explanation = input.explanation ?? undefined;
      const result = deps.apply(ctx.sessionId, (current): OpResult => {
        // The list is rewritten in place (it reopens a plan that completed by itself); a plan
        // closed for good, or one of another dialect, is replaced by a new checklist plan.
        if (current && current.dialect === 'checklist' && isOpen(current)) {
          const contradiction = contradictionError(current, items.map((i) => i.title));
          return contradiction ? { ok: false, error: contradiction } : rewriteSteps(current, items, explanation, deps.options);
        }
        return createPlan(
          {
            id: newPlanId('plan', deps.options.now()),
            dialect: 'checklist',
            goal: explanation ?? 'Task plan',
            explanation,
            steps: items.map((item) => ({ ...item, isVerification: looksLikeVerification(item.title) || undefined })),
          },
          current?.version ?? 0,
          deps.options,
        );
      });
      if (!result.ok) return fail('invalid_parameter', result.error);
      const { total, completed, in_progress, pending } = result.plan.summary;
      return ok(jsonContent({ success: true, version: result.plan.version, summary: { total, completed, in_progress, pending } }));
    },
  });
  return [tool];
}

export const checklistGuidance = `## Planning
For non-trivial work (3+ steps, several files, sequential operations) keep a plan with update_plan: 1-12 clear, actionable steps, including a verification step (tests, validation). Skip it for single-step tasks, trivial operations and quick lookups.
Send the whole list each call. Mark a step in_progress when you start it and completed immediately after finishing; only one step in_progress. Update the list when the scope changes.`;

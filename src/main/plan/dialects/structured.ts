import type { Plan, PlanCompletion } from '../../../shared/plan';
import { fail, ok, type ToolDefinition, type ToolOutcome } from '../../tools/tool';
import { insertStep, type Placement } from '../engine/add-steps';
import { completePlanAsClaimed } from '../engine/close-plan';
import { createPlan } from '../engine/create-plan';
import type { OpResult } from '../engine/engine-types';
import { addNote } from '../engine/step-notes';
import { setStepStatus } from '../engine/step-status';
import { type DialectDeps, newPlanId } from './dialect-deps';
import { planView, stepUpdateView } from './plan-view';
import { CompletePlanInput, CreatePlanInput, UpdatePlanInput } from './structured-schemas';
import { countOf, textOf, PLANNING } from './tool-kit';
import { defineTool } from '../../tools/define-tool';

/** The default dialect (seed P4-02): create_plan, update_plan with actions, complete_plan. */

const NO_PLAN = 'There is no plan yet. Call create_plan first.';
/** Every this many versions an update_plan result repeats the whole plan, so the model's picture never drifts. */
const FULL_VIEW_EVERY = 10;

export function structuredTools(deps: DialectDeps): ToolDefinition[] {
  const respond = (result: OpResult, unchangedText: string): ToolOutcome => {
    if (!result.ok) return fail('invalid_parameter', result.error);
    return ok(`${result.change || unchangedText}\n${planView(result.plan)}`);
  };
  /** update_plan answers with the changed step only, and the whole plan every FULL_VIEW_EVERY versions. */
  const respondStep = (result: OpResult, stepOf: (plan: Plan) => number | undefined, unchangedText: string): ToolOutcome => {
    if (!result.ok || result.plan.version % FULL_VIEW_EVERY === 0) return respond(result, unchangedText);
    return ok(`${result.change || unchangedText}\n${stepUpdateView(result.plan, stepOf(result.plan))}`);
  };

  const createTool = defineTool({
    ...PLANNING,
    name: 'create_plan',
    description:
      'Create a structured execution plan before complex multi-step work (replaces the current plan).',
    input: CreatePlanInput,
    usage: 'Pass {goal, steps: [{step_number, description, ...}]} with unique step numbers.',
    summarize: (input) => `Create plan "${textOf(input.goal, 'unknown goal')}" (${countOf(input.steps)} steps)`,
    describeDryRun: (input) =>
      `Would create plan for '${textOf(input.goal, 'unknown goal', 200)}' with ${countOf(input.steps)} steps.`,
    execute: (input, ctx) => {
      const result = deps.apply(ctx.sessionId, (current) =>
        createPlan(
          {
            id: newPlanId('plan', deps.options.now()),
            dialect: 'structured',
            goal: input.goal,
            steps: input.steps.map((s) => ({
              id: s.step_number,
              title: s.description,
              dependsOn: s.depends_on ?? [],
              successCriteria: s.success_criteria ?? undefined,
              toolsToUse: s.tools_to_use ?? undefined,
              isVerification: s.is_verification ?? undefined,
            })),
            verificationApproach: input.verification_approach ?? undefined,
            rollbackStrategy: input.rollback_strategy ?? undefined,
            estimatedToolCalls: input.estimated_tool_calls ?? undefined,
          },
          current?.version ?? 0,
          deps.options,
        ),
      );
      return respond(result, '');
    },
  });

  const updateTool = defineTool({
    ...PLANNING,
    name: 'update_plan',
    description:
      "Update the current plan's progress: start, complete, fail or skip a step, add a step, or record a note.",
    input: UpdatePlanInput,
    usage: 'Example: {"action": "complete_step", "step_number": 2, "result": "..."}.',
    summarize: (input) => {
      const action = textOf(input.action, 'update');
      if (action === 'add_step') return `Add step "${textOf(input.new_step?.description, '?')}"`;
      if (action === 'note') return `Note: ${textOf(input.note, '…')}`;
      return `${action.replace('_step', '').replace(/^\w/, (c) => c.toUpperCase())} step ${stepOf(input)}`;
    },
    describeDryRun: (input) => `Would ${textOf(input.action, 'unknown')} for step ${stepOf(input)}.`,
    execute: (input, ctx) => {
      const plan = deps.get(ctx.sessionId);
      if (!plan) return fail('not_found', NO_PLAN);
      const step = input.step_number ?? undefined;
      if (input.action === 'add_step') {
        const draft = input.new_step;
        if (!draft) return fail('invalid_parameter', 'add_step needs new_step: {"description": "...", "after_step": N}.');
        const after = draft.after_step ?? undefined;
        const placement: Placement = after === undefined ? { kind: 'end' } : after === 0 ? { kind: 'start' } : { kind: 'after', stepId: after };
        const added = deps.apply(ctx.sessionId, (p) => (p ? insertStep(p, { title: draft.description }, placement, deps.options) : { ok: false, error: NO_PLAN }));
        // The new step took the next free id, so it is the one just below the plan's nextStepId.
        return respondStep(added, (p) => (p.nextStepId ?? 1) - 1, '');
      }
      if (input.action === 'note') {
        const target = step ?? plan.steps.find((s) => s.status === 'in_progress')?.id;
        if (!input.note) return fail('invalid_parameter', 'The note action needs "note": the observation to record.');
        if (target === undefined) return fail('invalid_parameter', 'No step is in progress; pass step_number for the note.');
        return respondStep(deps.apply(ctx.sessionId, (p) => (p ? addNote(p, target, input.note ?? '', deps.options) : { ok: false, error: NO_PLAN })), () => target, '');
      }
      if (step === undefined) return fail('invalid_parameter', `${input.action} needs step_number: the step to update.`);
      const status = STATUS_FOR[input.action];
      const result = deps.apply(ctx.sessionId, (p) =>
        p
          ? setStepStatus(p, { stepId: step, status, result: input.result ?? undefined, reason: input.reason ?? undefined }, deps.options)
          : { ok: false, error: NO_PLAN },
      );
      return respondStep(result, () => step, `Step ${step} is already ${status}; nothing changed.`);
    },
  });

  const completeTool = defineTool({
    ...PLANNING,
    name: 'complete_plan',
    description:
      'Mark the current plan complete with a summary of what was accomplished and any issues. Call it last.',
    input: CompletePlanInput,
    usage: 'Pass {status: "success" | "partial_success" | "failed", summary: "..."}.',
    summarize: (input) => `Complete plan (${textOf(input.status, 'unknown')})`,
    describeDryRun: (input) => `Would complete plan with status: ${textOf(input.status, 'unknown')}.`,
    execute: (input, ctx) => {
      if (!deps.get(ctx.sessionId)) return fail('not_found', 'There is no plan to complete. Call create_plan first, or just answer.');
      const completion: PlanCompletion = {
        status: input.status,
        summary: input.summary,
        issues: input.issues_encountered ?? [],
        ...(input.steps_completed != null ? { stepsCompleted: input.steps_completed } : {}),
        ...(input.steps_failed != null ? { stepsFailed: input.steps_failed } : {}),
        ...(input.steps_skipped != null ? { stepsSkipped: input.steps_skipped } : {}),
        ...(input.elements_created ? { created: input.elements_created } : {}),
        ...(input.elements_modified ? { modified: input.elements_modified } : {}),
        ...(input.recommendations ? { recommendations: input.recommendations } : {}),
      };
      const result = deps.apply(ctx.sessionId, (p) => (p ? completePlanAsClaimed(p, completion, deps.options) : { ok: false, error: NO_PLAN }));
      if (!result.ok) return fail('invalid_parameter', result.error);
      const s = result.plan.summary;
      return ok(
        `${result.change}. ${s.completed}/${s.total} steps completed, ${s.failed} failed, ${s.skipped} skipped. The summary is shown to the user.`,
      );
    },
  });

  return [createTool, updateTool, completeTool];
}

const STATUS_FOR = {
  start_step: 'in_progress',
  complete_step: 'completed',
  fail_step: 'failed',
  skip_step: 'skipped',
} as const;

function stepOf(input: { step_number?: number | null }): number {
  const n = input.step_number;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

export const structuredGuidance = `## Planning
Plan multi-step work (3+ tool calls, several files, ordered steps, results to check) with create_plan before acting: concrete steps, depends_on where order matters, and a final verification step (is_verification), e.g. run the tests. Don't plan questions, single edits or lookups.
Mark progress as you go with update_plan: start_step, then complete_step with its result right after; fail_step/skip_step with a reason; add_step for new work. One step in progress at a time. End with complete_plan.`;

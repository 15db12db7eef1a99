import { z } from 'zod';
import type { Plan, PlanStep } from '../../../shared/plan';
import { optionalField } from '../../tools/json-schema';
import { fail, ok, type ToolDefinition, type ToolOutcome } from '../../tools/tool';
import { addSteps } from '../engine/add-steps';
import { createPlan } from '../engine/create-plan';
import { type OpResult, rejected } from '../engine/engine-types';
import { looksLikeVerification } from '../engine/step-calls';
import { editStep } from '../engine/step-status';
import { type DialectDeps, newPlanId } from './dialect-deps';
import { countOf, jsonContent, textOf, PLANNING } from './tool-kit';
import { defineTool } from '../../tools/define-tool';

/** The "Planning Tool Suite" seed: a session-scoped todo list with stable integer step ids. */

const NO_PLAN = 'There is no plan yet. Call planning_setup_plan first.';
/** The reference implementation's limit on the objective (seed "Planning Tool Suite"). */
const MAX_OBJECTIVE_CHARS = 500;
const draftOf = (title: string) => ({ title, isVerification: looksLikeVerification(title) || undefined });

/** The objective's rule, worded as the reference implementation words it; null when it is fine. */
function objectiveError(objective: string): string | null {
  const trimmed = objective.trim();
  if (!trimmed) return 'Objective must not be empty.';
  if (trimmed.length > MAX_OBJECTIVE_CHARS) return `Objective must be <= ${MAX_OBJECTIVE_CHARS} characters (it is ${trimmed.length}).`;
  return null;
}
const title = z.string();
const titles = z.array(title);

const SetupInput = z.object({ objective: z.string(), initial_steps: optionalField(titles) });
const AddInput = z.object({ steps: titles.min(1, 'give at least one step title').describe('Step titles') });
const UpdateInput = z.object({
  step_id: z.number().int().positive(),
  title: title.nullish(),
  status: z.enum(['pending', 'in_progress', 'done']).nullish(),
});
const UPDATE_USAGE = 'Pass {step_id: N, status: "in_progress" | "done" | "pending"} and/or {title: "..."}.';

/** The seed's own view of a plan: statuses pending | in_progress | done. */
type SessionStep = { step_id: number; title: string; status: string };
const stepOf = (s: PlanStep): SessionStep => ({ step_id: s.id, title: s.title, status: s.status === 'completed' ? 'done' : s.status });

/** Snapshots are immutable, so each one's JSON is built once (planning_read_plan repeats it). */
const views = new WeakMap<Plan, string>();
function sessionView(plan: Plan): string {
  let view = views.get(plan);
  if (view === undefined) {
    const steps: SessionStep[] = [];
    for (const s of plan.steps) steps.push(stepOf(s)); // a loop: see engine/step-lookup.ts
    view = jsonContent({ objective: plan.goal, status: plan.status, steps });
    views.set(plan, view);
  }
  return view;
}

/**
 * planning_update_step answers with the step it changed and the counts, not the whole list: the
 * model has the list from setup/add/read, and repeating it on every update made each request
 * grow by the whole plan. planning_read_plan still returns everything.
 */
function updateView(plan: Plan, stepId: number): string {
  let step: PlanStep | undefined;
  for (const s of plan.steps) if (s.id === stepId) step = s;
  const { completed, total } = plan.summary;
  return jsonContent({ objective: plan.goal, status: plan.status, updated_step: step ? stepOf(step) : null, steps_done: completed, steps_total: total });
}

export function sessionTools(deps: DialectDeps): ToolDefinition[] {
  const respond = (result: OpResult, view: (plan: Plan) => string = sessionView): ToolOutcome =>
    result.ok ? ok(view(result.plan)) : fail(result.error === NO_PLAN ? 'not_found' : 'invalid_parameter', result.error);
  /** add and update need an existing, still active plan. */
  const onActive = (sessionId: string, op: (plan: Plan) => OpResult, view?: (plan: Plan) => string): ToolOutcome =>
    respond(
      deps.apply(sessionId, (plan) => {
        if (!plan) return rejected(NO_PLAN);
        if (plan.status !== 'active') {
          return rejected(`The plan "${plan.goal}" is ${plan.status}; it can't change. Call planning_setup_plan to start a new plan.`);
        }
        return op(plan);
      }),
      view,
    );

  return [
    defineTool({
      ...PLANNING,
      name: 'planning_setup_plan',
      description: 'Create or replace the plan: an objective and optional initial steps (ids start at 1).',
      input: SetupInput,
      usage: 'Pass {objective: "...", initial_steps: ["...", "..."]}.',
      summarize: (input) => `Set up plan "${textOf(input.objective, '?')}"`,
      describeDryRun: (input) =>
        `Would set up plan '${textOf(input.objective, 'unknown objective', 200)}' with ${countOf(input.initial_steps)} steps.`,
      execute: (input, ctx) => {
        const invalid = objectiveError(input.objective);
        if (invalid) return fail('invalid_parameter', invalid);
        return respond(
          deps.apply(ctx.sessionId, (current) =>
            createPlan(
              {
                id: newPlanId('plan', deps.options.now()),
                dialect: 'session',
                goal: input.objective,
                steps: (input.initial_steps ?? []).map(draftOf),
              },
              current?.version ?? 0,
              deps.options,
            ),
          ),
        );
      },
    }),
    defineTool({
      ...PLANNING,
      name: 'planning_add_step',
      description: 'Append steps to the active plan.',
      input: AddInput,
      usage: 'Pass {steps: ["...", "..."]}.',
      summarize: (input) => `Add ${countOf(input.steps)} step(s)`,
      describeDryRun: (input) => `Would add ${countOf(input.steps)} steps to the plan.`,
      execute: (input, ctx) => onActive(ctx.sessionId, (plan) => addSteps(plan, input.steps.map(draftOf), deps.options)),
    }),
    defineTool({
      ...PLANNING,
      name: 'planning_update_step',
      description: "Change a step's title or status (pending, in_progress, done). The plan completes when all steps are done.",
      input: UpdateInput,
      usage: UPDATE_USAGE,
      summarize: (input) => `Update step ${numberOf(input.step_id)}${statusOf(input)}`,
      describeDryRun: (input) => `Would update step ${numberOf(input.step_id)}${statusOf(input)}.`,
      execute: (input, ctx) => {
        // A rule across fields stays out of the schema Claude sees; the answer is the same.
        if (input.title == null && input.status == null) {
          return fail('invalid_parameter', `Invalid planning_update_step input: give title, status, or both. ${UPDATE_USAGE}`);
        }
        const status = input.status == null ? undefined : input.status === 'done' ? 'completed' : input.status;
        return onActive(
          ctx.sessionId,
          (plan) => editStep(plan, { stepId: input.step_id, title: input.title ?? undefined, status, mode: 'free' }, deps.options),
          (plan) => updateView(plan, input.step_id),
        );
      },
    }),
    defineTool({
      ...PLANNING,
      name: 'planning_read_plan',
      description: 'Read the current plan.',
      input: z.object({}),
      usage: 'Pass {}.',
      summarize: () => 'Read plan',
      describeDryRun: () => 'Would read the current plan.',
      execute: (_input, ctx) => {
        const plan = deps.get(ctx.sessionId);
        return plan ? ok(sessionView(plan)) : fail('not_found', NO_PLAN);
      },
    }),
  ];
}

function numberOf(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '?';
}

function statusOf(input: { status?: string | null }): string {
  const status = input.status;
  return typeof status === 'string' ? ` → ${textOf(status, '?', 20)}` : '';
}

export const sessionGuidance = `## Planning
Use planning for multi-step work; skip it for trivial tasks. Start with planning_setup_plan (objective and steps, including a verification step), add steps with planning_add_step, mark progress with planning_update_step (in_progress when you start a step, done right after it), and check state with planning_read_plan. One step in progress at a time.`;

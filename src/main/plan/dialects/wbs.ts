import type { Plan } from '../../../shared/plan';
import { fail, ok, type ToolDefinition, type ToolOutcome } from '../../tools/tool';
import { addSteps } from '../engine/add-steps';
import { completePlan } from '../engine/close-plan';
import { createPlan } from '../engine/create-plan';
import { rejected } from '../engine/engine-types';
import { type DialectDeps, newPlanId } from './dialect-deps';
import { wbsItemsToDrafts } from './wbs-items';
import { wbsPath, writeWbs } from './wbs-file';
import { AddStepInput, InitializeInput, NoInput, SessionOnlyInput } from './wbs-schemas';
import { countOf, jsonContent, textOf, PLANNING } from './tool-kit';
import { defineTool } from '../../tools/define-tool';

/**
 * The WBS dialect ("Planning Tool - Multi-Action" seed). A planning session is a plan of the
 * chat (sessionId = plan id); every WBS item is a step. WBS.md is rewritten after every call.
 */

interface WbsProgress {
  /** planning_add_step calls so far ("Steps" in WBS.md, totalSteps in results). */
  steps: number;
  /** The step_number of the latest planning_add_step. */
  current: number;
}

export function wbsTools(deps: DialectDeps): ToolDefinition[] {
  const progress = new Map<string, WbsProgress>();
  const progressOf = (plan: Plan): WbsProgress => progress.get(plan.id) ?? { steps: 0, current: 0 };

  /** The plan a session_id names, or an error that says how to get a valid one. */
  const lookup = (chat: string, sessionId: string): { plan: Plan; current: boolean } | { error: string } => {
    const current = deps.get(chat);
    if (current?.id === sessionId) return { plan: current, current: true };
    const old = deps.earlier(chat).find((p) => p.id === sessionId);
    if (old) return { plan: old, current: false };
    return { error: `Session not found: "${sessionId}". Call planning_initialize first and pass the sessionId it returns.` };
  };

  const save = async (chat: string, plan: Plan) => {
    const outputPath = wbsPath(deps.dataDir, chat, deps.workspaceOf(chat));
    const written = await writeWbs(deps.writer, outputPath, plan, progressOf(plan).steps);
    return { outputPath, written };
  };
  const warn = (written: boolean) => (written ? {} : { warning: 'WBS.md could not be written; the plan itself is saved.' });

  /** add_step and finalize need the session to be the chat's current, still active plan. */
  const activeSession = (chat: string, sessionId: string): Plan | ToolOutcome => {
    const found = lookup(chat, sessionId);
    if ('error' in found) return fail('not_found', found.error);
    if (!found.current) return fail('invalid_parameter', `Session "${sessionId}" was replaced by a newer planning session; use that sessionId or call planning_initialize.`);
    if (found.plan.status !== 'active') {
      return fail('invalid_parameter', `Session "${sessionId}" is ${found.plan.status}; call planning_initialize to start a new planning session.`);
    }
    return found.plan;
  };

  return [
    defineTool({
      ...PLANNING,
      name: 'planning_initialize',
      description: 'Start a planning session: creates WBS.md and returns the sessionId for the other planning_ tools.',
      input: InitializeInput,
      usage: 'Pass {problem_statement: "...", project_name: "..."}.',
      summarize: (input) => `Start WBS planning: ${textOf(input.project_name, textOf(input.problem_statement, '?'))}`,
      describeDryRun: (input) => `Would start a planning session for '${textOf(input.problem_statement, 'unknown problem', 200)}'.`,
      execute: async (input, ctx) => {
        if (!input.problem_statement.trim()) return fail('invalid_parameter', 'problem_statement is empty; describe the project to break down.');
        const name = input.project_name?.trim() || projectNameFrom(input.problem_statement);
        const result = deps.apply(ctx.sessionId, (current) =>
          createPlan(
            { id: newPlanId('planning', deps.options.now()), dialect: 'wbs', goal: name, explanation: input.problem_statement, steps: [] },
            current?.version ?? 0,
            deps.options,
          ),
        );
        if (!result.ok) return fail('invalid_parameter', result.error.replace('The goal', 'The project name'));
        progress.set(result.plan.id, { steps: 0, current: 0 });
        const { outputPath, written } = await save(ctx.sessionId, result.plan);
        return ok(
          jsonContent({
            success: true,
            sessionId: result.plan.id,
            projectName: result.plan.goal,
            outputPath,
            message: `Session initialized. WBS file created at: ${outputPath}`,
            nextAction: 'add_step',
            instructions: {
              next_step: 'Call planning_add_step to add your first planning analysis',
              wbs_file: 'WBS.md file has been created and will be updated progressively',
            },
            ...warn(written),
          }),
        );
      },
    }),
    defineTool({
      ...PLANNING,
      name: 'planning_add_step',
      description: 'Add one planning step: your analysis plus WBS items (parents before children). Updates WBS.md immediately.',
      input: AddStepInput,
      usage: 'Pass {session_id, step_number, planning_analysis, wbs_items: [{id, title, level, priority, parent_id, ...}]}.',
      summarize: (input) => `WBS step ${numberOr(input.step_number)}: ${countOf(input.wbs_items)} items`,
      describeDryRun: (input) => `Would add planning step ${numberOr(input.step_number)} with ${countOf(input.wbs_items)} WBS items.`,
      execute: async (input, ctx) => {
        const found = activeSession(ctx.sessionId, input.session_id);
        if (!('id' in found)) return found;
        const items = input.wbs_items ?? [];
        let plan = found;
        if (items.length > 0) {
          const result = deps.apply(ctx.sessionId, (current) => {
            if (!current || current.id !== found.id) return rejected(`Session "${input.session_id}" is no longer active.`);
            const mapped = wbsItemsToDrafts(current, items);
            return mapped.ok ? addSteps(current, mapped.drafts, deps.options, `Updated plan: ${items.length} WBS item${items.length === 1 ? '' : 's'} added`) : rejected(mapped.error);
          });
          if (!result.ok) return fail('invalid_parameter', result.error);
          plan = result.plan;
        }
        const done = progressOf(plan);
        progress.set(plan.id, { steps: done.steps + 1, current: input.step_number });
        const { outputPath, written } = await save(ctx.sessionId, plan);
        return ok(
          jsonContent({
            success: true,
            sessionId: plan.id,
            stepNumber: input.step_number,
            wbsItemsAdded: items.length,
            totalWbsItems: plan.steps.length,
            wbsFileUpdated: written,
            outputPath,
            message: `Step ${input.step_number} completed. Added ${items.length} WBS items. ${written ? 'WBS file updated.' : 'WBS file could not be written.'}`,
            nextAction: 'add_step_or_finalize',
          }),
        );
      },
    }),
    defineTool({
      ...PLANNING,
      name: 'planning_finalize',
      description: 'Mark the planning session completed and write the final WBS.md.',
      input: SessionOnlyInput,
      usage: 'Pass {session_id: "..."}.',
      summarize: () => 'Finalize WBS plan',
      describeDryRun: () => 'Would finalize the planning session.',
      execute: async (input, ctx) => {
        const found = activeSession(ctx.sessionId, input.session_id);
        if (!('id' in found)) return found;
        const n = found.steps.length;
        const result = deps.apply(ctx.sessionId, (current) =>
          current && current.id === found.id
            ? completePlan(current, { status: 'success', summary: `Planning completed! ${n} WBS items generated.`, issues: [] }, deps.options)
            : rejected(`Session "${input.session_id}" is no longer active.`),
        );
        if (!result.ok) return fail('invalid_parameter', result.error);
        const { outputPath, written } = await save(ctx.sessionId, result.plan);
        return ok(
          jsonContent({
            success: true,
            sessionId: result.plan.id,
            status: 'completed',
            totalSteps: progressOf(result.plan).steps,
            totalWbsItems: n,
            outputPath,
            message: `Planning completed! ${n} WBS items generated.`,
            ...warn(written),
          }),
        );
      },
    }),
    defineTool({
      ...PLANNING,
      name: 'planning_status',
      description: 'Check the status and progress of a planning session.',
      input: SessionOnlyInput,
      usage: 'Pass {session_id: "..."}.',
      summarize: () => 'WBS planning status',
      describeDryRun: () => 'Would read the planning session status.',
      execute: async (input, ctx) => {
        const found = lookup(ctx.sessionId, input.session_id);
        if ('error' in found) return fail('not_found', found.error);
        const outputPath = found.current ? (await save(ctx.sessionId, found.plan)).outputPath : wbsPath(deps.dataDir, ctx.sessionId, deps.workspaceOf(ctx.sessionId));
        const p = progressOf(found.plan);
        return ok(
          jsonContent({
            success: true,
            sessionId: found.plan.id,
            status: found.plan.status,
            projectName: found.plan.goal,
            currentStep: p.current,
            totalSteps: p.steps,
            totalWbsItems: found.plan.steps.length,
            outputPath,
          }),
        );
      },
    }),
    defineTool({
      ...PLANNING,
      name: 'planning_list',
      description: "List this chat's planning sessions.",
      input: NoInput,
      usage: 'Pass {}.',
      summarize: () => 'List WBS planning sessions',
      describeDryRun: () => 'Would list the planning sessions.',
      execute: (_input, ctx) => {
        const current = deps.get(ctx.sessionId);
        const plans = [...deps.earlier(ctx.sessionId), ...(current ? [current] : [])].filter((p) => p.dialect === 'wbs');
        const sessions = plans.map((p) => ({
          sessionId: p.id,
          projectName: p.goal,
          status: p.status,
          totalSteps: progressOf(p).steps,
          totalWbsItems: p.steps.length,
          lastUpdated: p.updatedAt,
        }));
        return ok(jsonContent({ success: true, totalSessions: sessions.length, sessions }));
      },
    }),
  ];
}

/** The seed's auto-generated name: the first words of the problem statement. */
export function projectNameFrom(problem: string): string {
  const words = problem.trim().split(/\s+/).slice(0, 4).join(' ').replace(/[.,;:!?]+$/, '');
  return words.length > 0 ? words.slice(0, 80) : 'Untitled project';
}

function numberOr(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '?';
}

export const wbsGuidance = `## Planning
For larger projects, build a work breakdown structure: planning_initialize (problem_statement, project_name), then planning_add_step once per planning step with your analysis and wbs_items — top-level phases first (level 0), then children (level 1+, parent_id required, parents before children), with dependencies by WBS id and a testing/verification item. Check progress with planning_status; finish with planning_finalize. WBS.md is updated after every call. Skip planning for small, single-step tasks.`;

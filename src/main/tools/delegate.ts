import { z } from 'zod';
import { defineTool } from './define-tool';
import { optionalField } from './json-schema';
import { fail, type ToolContext, type ToolDefinition, type ToolOutcome } from './tool';

/**
 * delegate (docs/contract.md §10): Claude hands a task to a sub-agent, a run of its own
 * with a fresh history and its own plan. The tool only validates and words; the loop runs the
 * sub-agent (agent/loop/sub-agents.ts) and its final text becomes this call's result.
 */

export const DELEGATE = 'delegate';

export const DelegateInput = z
  .object({
    task: z
      .string()
      .trim()
      .min(1, { error: 'task is empty: say what the sub-agent should do' })
      .max(20_000)
      .describe('What the sub-agent should do, as a complete instruction: it sees nothing of this conversation but this task and the context'),
    context: optionalField(z.string().max(100_000).describe('Facts the sub-agent needs that are not in the task: findings so far, file names, constraints')),
    read_only: optionalField(z.boolean().describe('Give the sub-agent only the tools that read (no file changes, no commands): for research and review')),
  })
  .strict();
export type DelegateInput = z.output<typeof DelegateInput>;

/** Runs one sub-agent for a delegate call; never throws (agent/loop/sub-agents.ts). */
export type RunDelegate = (input: DelegateInput, ctx: ToolContext) => Promise<ToolOutcome>;

export function createDelegateTool(run: RunDelegate): ToolDefinition {
  return defineTool({
    name: DELEGATE,
    description:
      'Hand a self-contained task to a sub-agent: it works with its own fresh conversation and its own plan, using the workspace ' +
      'tools, and its final answer comes back as this tool\'s result. Use it for independent pieces of work (research, a separate ' +
      'module, a review); several delegate calls in one reply run in parallel. Write the task so it stands alone.',
    input: DelegateInput,
    group: 'agents',
    label: 'Delegate to a sub-agent',
    summarize: (v) => `Sub-agent: ${v.task.split('\n')[0]!.slice(0, 60)}`,
    describeDryRun: (v) => `Would start a sub-agent${v.read_only ? ' (reading only)' : ''} to: ${v.task}`,
    // The sub-agent's own calls ask (or are refused) by the chat's approval rules, one by one.
    needsApproval: () => false,
    async execute(input, ctx) {
      return run(input, ctx).catch((error: unknown) => fail('unknown', `The sub-agent failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`));
    },
  });
}

import type { ContentBlock, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import type { Plan, PlanStep } from '../../../shared/plan';
import { stepNumbers } from '../../../shared/step-numbers';
import { looksLikeVerification } from '../../plan/engine/step-calls';
import { defineTool } from '../../tools/define-tool';
import { ok } from '../../tools/tool';

/**
 * The goal check's one request (docs/architecture.md "Goal checks"): no history, no system
 * prompt of the chat, no thinking — only the goal, the plan's steps with their results and
 * success criteria, and the outputs of the verification steps' tool calls; one tool, forced.
 */

export const GOAL_CHECK_TOOL = 'report_goal_check';

/** The first words of the check's instruction (tests and the scripted server look for them). */
export const GOAL_CHECK_MARK = 'Check whether this plan met its goal';

export const ReportGoalCheckInput = z.object({
  met: z.boolean().describe('True only when the evidence shows the goal met.'),
  findings: z.array(z.string()).describe('What still keeps the goal from being met: one short, concrete thing to fix per entry (empty when met).'),
});

/** Offered only to the check's request and never run: its input is read from the reply. */
export const reportGoalCheckTool = defineTool({
  name: GOAL_CHECK_TOOL,
  description: 'Report whether the plan met its goal, with what still needs fixing when it did not. Call it exactly once.',
  input: ReportGoalCheckInput,
  group: 'planning',
  readOnly: true,
  summarize: (input) => (input.met ? 'Goal met' : `Goal not met (${input.findings.length} findings)`),
  describeDryRun: () => 'Would report the goal check.',
  needsApproval: () => false,
  execute: () => ok('Recorded.'),
});

/** A tool output is cut to this many characters in the check's request, so one long log cannot crowd out the rest. */
const OUTPUT_CHARS = 4_000;
/** The check's reply is one short tool call. */
const CHECK_MAX_TOKENS = 2_048;

/** What the check reads of a tool call made in a verification step: its card in the transcript. */
export interface CallOutput {
  name: string;
  summary: string;
  result?: string;
}

export function goalCheckRequest(plan: Plan, model: string, maxOutputTokens: number, outputOf: (toolUseId: string) => CallOutput | undefined): MessageCreateParamsNonStreaming {
  const tool = reportGoalCheckTool;
  return {
    model,
    max_tokens: Math.min(CHECK_MAX_TOKENS, maxOutputTokens),
    system:
      'You are an independent reviewer. You did not do this work and see none of the conversation that did: judge only from the evidence given. A claim that no tool output shows is not evidence.',
    tools: [{ name: tool.name, description: tool.description, input_schema: tool.inputSchema }],
    tool_choice: { type: 'tool', name: tool.name },
    messages: [{ role: 'user', content: [{ type: 'text', text: checkText(plan, outputOf) }] }],
  };
}

function checkText(plan: Plan, outputOf: (toolUseId: string) => CallOutput | undefined): string {
  const numbers = stepNumbers(plan.steps);
  const lines = [
    `${GOAL_CHECK_MARK}. Call ${GOAL_CHECK_TOOL} once: met true only when the evidence below shows the goal met; otherwise met false, with findings that each name one concrete thing still to fix.`,
    '',
    `Goal: ${plan.goal}`,
    '',
    'Steps (status, result, success criteria):',
    ...plan.steps.map((step) => stepLine(step, numbers.get(step.id) ?? String(step.id))),
  ];
  const outputs = plan.steps.filter(isVerification).flatMap((step) => verificationOutputs(step, numbers.get(step.id) ?? String(step.id), outputOf));
  lines.push('', 'Outputs of the verification steps\' tool calls:', ...(outputs.length ? outputs : ['(none: no verification step ran a tool)']));
  return lines.join('\n');
}

function stepLine(step: PlanStep, number: string): string {
  const parts = [`${number}. ${step.title} [${step.status.replace('_', ' ')}]${step.isVerification ? ' (verification)' : ''}`];
  if (step.result) parts.push(`   Result: ${step.result}`);
  if (step.reason) parts.push(`   Reason: ${step.reason}`);
  if (step.successCriteria) parts.push(`   Success criteria: ${step.successCriteria}`);
  return parts.join('\n');
}

const isVerification = (step: PlanStep): boolean => !!step.isVerification || looksLikeVerification(step.title);

function verificationOutputs(step: PlanStep, number: string, outputOf: (toolUseId: string) => CallOutput | undefined): string[] {
  return (step.calls ?? []).map((call) => {
    const card = call.toolUseId ? outputOf(call.toolUseId) : undefined;
    const output = card?.result ?? '(output not kept)';
    const cut = output.length > OUTPUT_CHARS ? `${output.slice(0, OUTPUT_CHARS)}\n… (${output.length - OUTPUT_CHARS} more characters)` : output;
    return `--- Step ${number}: ${call.summary} (${call.tool}, ${call.ok ? 'succeeded' : 'failed'})\n${cut}`;
  });
}

/** What the reply reported: the parsed call, or why it counts as a failed check. */
export type GoalReport = { ok: true; met: boolean; findings: string[] } | { ok: false; error: string };

export function readReport(content: readonly ContentBlock[]): GoalReport {
  const call = content.find((b) => b.type === 'tool_use' && b.name === GOAL_CHECK_TOOL);
  if (!call || call.type !== 'tool_use') return { ok: false, error: `The check's reply had no ${GOAL_CHECK_TOOL} call.` };
  const parsed = ReportGoalCheckInput.safeParse(call.input);
  if (!parsed.success) {
    const words = reportGoalCheckTool.parse(call.input);
    return { ok: false, error: words.ok ? `Invalid ${GOAL_CHECK_TOOL} input.` : words.error.message };
  }
  return { ok: true, met: parsed.data.met, findings: parsed.data.findings };
}

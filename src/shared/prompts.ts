import { z } from 'zod';
import { ErrorClass, StepAttempt } from './plan';

/**
 * Questions the loop pauses on and the user answers: approving a risky tool call, an escalation
 * when a plan step keeps failing, and a question from Claude (ask_user). All live in main (they
 * survive a reload and a restart).
 */

/** What "Approve for this chat" and "Always approve" would remember (see approval-rules.ts). */
export const ApprovalScope = z.object({ tool: z.string(), server: z.string().optional(), pattern: z.string() });
export type ApprovalScope = z.infer<typeof ApprovalScope>;

/**
 * The sub-agent a question comes from (docs/contract.md §10 "Its questions"): the chat shows and
 * answers it as its own, labelled "Sub-agent: TITLE"; absent for the chat's own questions.
 */
export const PromptAgent = z.object({ id: z.string().min(1), title: z.string(), depth: z.number().int().positive() });
export type PromptAgent = z.infer<typeof PromptAgent>;

/** What a question asks, in a line ("Needs you", notifications), led by the sub-agent that asks it, if one does. */
export function askedBy(request: { agent?: PromptAgent | undefined }, text: string): string {
  return request.agent ? `Sub-agent: ${request.agent.title}: ${text}` : text;
}

export const ApprovalRequest = z.object({
  id: z.string(),
  sessionId: z.string(),
  toolUseId: z.string(),
  toolName: z.string(),
  /** The MCP server a tool comes from. */
  server: z.string().optional(),
  kind: z.enum(['edit', 'command', 'mcp', 'other']),
  /** One line: "Edit src/app.ts", "Run npm test in ./". */
  summary: z.string(),
  /** The tool's dry-run description: a unified diff for edits, the command line and folder. */
  dryRun: z.string(),
  /** What a scoped approval covers; null when this call can only be approved once (a command with shell operators). */
  scope: ApprovalScope.nullable().optional(),
  /**
   * Why this call always asks whatever the rules and auto-approve settings (it changes git's
   * configuration or hooks): said on the card; such a call has no scope. Absent for other calls.
   */
  protected: z.string().optional(),
  agent: PromptAgent.optional(),
  createdAt: z.string(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

/** "Approve" (this call), "Approve for this chat", "Always approve", "Deny". */
export const ApprovalDecision = z.enum(['approve', 'approve_chat', 'approve_always', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const EscalationRequest = z.object({
  id: z.string(),
  sessionId: z.string(),
  /** The stuck plan step, when there is a plan. */
  stepId: z.number().int().positive().nullable(),
  stepTitle: z.string(),
  toolName: z.string(),
  /** The tool_use the run holds back its tool_result for (needed to resume after a restart). */
  toolUseId: z.string().optional(),
  error: z.string(),
  errorClass: ErrorClass,
  /** What was tried, oldest first. */
  attempts: z.array(StepAttempt),
  agent: PromptAgent.optional(),
  createdAt: z.string(),
});
export type EscalationRequest = z.infer<typeof EscalationRequest>;

export const EscalationAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('skip') }).strict(),
  z.object({ kind: z.literal('abort') }).strict(),
  z
    .object({
      kind: z.literal('guidance'),
      text: z
        .string()
        .max(20_000, { error: 'Guidance is too long (the limit is 20,000 characters).' })
        .refine((s) => s.trim().length > 0, { error: 'Guidance is empty: say how Claude should proceed.' }),
    })
    .strict(),
]);
export type EscalationAnswer = z.infer<typeof EscalationAnswer>;

export const MAX_QUESTION_OPTIONS = 6;
export const MAX_ANSWER_CHARS = 20_000;

/** A question from Claude (the ask_user tool), waiting for the user's answer. */
export const QuestionRequest = z.object({
  id: z.string(),
  sessionId: z.string(),
  /** The ask_user call the run holds back its tool_result for. */
  toolUseId: z.string(),
  question: z.string(),
  /** The answers to pick from (none: the user types one). */
  options: z.array(z.string()).max(MAX_QUESTION_OPTIONS),
  /** A typed answer is taken too (always when there are no options). */
  allowText: z.boolean(),
  agent: PromptAgent.optional(),
  createdAt: z.string(),
});
export type QuestionRequest = z.infer<typeof QuestionRequest>;

/** The user's answer: an option's text or what they typed, kept verbatim. */
export const QuestionAnswer = z
  .string()
  .max(MAX_ANSWER_CHARS, { error: `The answer is too long (the limit is ${MAX_ANSWER_CHARS.toLocaleString('en-US')} characters).` })
  .refine((s) => s.trim().length > 0, { error: 'The answer is empty: pick an option or type an answer.' });

/** Why an answer does not fit the question (an option that is not offered), or null. */
export function answerProblem(request: Pick<QuestionRequest, 'options' | 'allowText'>, answer: string): string | null {
  if (request.allowText || request.options.length === 0 || request.options.includes(answer)) return null;
  return `Claude asked for one of: ${request.options.map((o) => `"${o}"`).join(', ')}. Pick one of those.`;
}

import { z } from 'zod';
import { ErrorClass, StepAttempt } from './plan';

/**
 * Questions the loop pauses on and the user answers: approving a risky tool call, and an
 * escalation when a plan step keeps failing. Both live in main (they survive a reload).
 */

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
  createdAt: z.string(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

export const ApprovalDecision = z.enum(['approve', 'deny']);
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

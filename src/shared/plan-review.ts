import { z } from 'zod';

/**
 * Plan first (docs/contract.md §2, §5): a plan Claude makes in a plan-first chat is a proposal until the
 * user approves it. The state rides on the plan (so it is versioned, logged and restored with it);
 * the user's answer reaches Claude as a new user message worded here, the same in main and in the
 * renderer.
 */

export const MAX_FEEDBACK_CHARS = 20_000;

export const PlanReview = z.discriminatedUnion('state', [
  /** Awaiting the user's approval; `feedback` is the user's last request for a revision. */
  z.object({
    state: z.literal('proposed'),
    feedback: z.object({ text: z.string(), at: z.string(), version: z.number().int().nonnegative() }).optional(),
  }),
  /** Approved by the user at `version` (the version they saw). */
  z.object({ state: z.literal('approved'), version: z.number().int().nonnegative(), at: z.string() }),
]);
export type PlanReview = z.infer<typeof PlanReview>;

export const PlanFeedback = z
  .string()
  .max(MAX_FEEDBACK_CHARS, { error: `Feedback is too long (the limit is ${MAX_FEEDBACK_CHARS.toLocaleString('en-US')} characters).` })
  .refine((s) => s.trim().length > 0, { error: 'Feedback is empty: say what Claude should change in the plan.' });

/** The user's answer to a proposal: approve it, or ask for a revision. */
export const ReviewDecision = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('approve') }).strict(),
  z.object({ kind: z.literal('revise'), feedback: PlanFeedback }).strict(),
]);
export type ReviewDecision = z.infer<typeof ReviewDecision>;

/** The user message "Approve plan" sends: it names the version approved. */
export function approvalMessage(version: number): string {
  return `I approve the plan (version ${version}). Go ahead and work through it step by step.`;
}

/** The user message "Send feedback" sends. */
export function feedbackMessage(version: number, feedback: string): string {
  return `Please revise the proposed plan (version ${version}) and propose it again: ${feedback.trim()}`;
}

import { z } from 'zod';
import { optionalField } from '../../tools/json-schema';

/**
 * The structured dialect's inputs (seed P4-02): zod schemas that validate what Claude sends, with
 * the seed's parameter descriptions; the JSON Schemas Claude sees are derived from them.
 */

/** Lengths and counts are the engine's rules (precise errors); tool-kit.ts caps the input's size. */
const text = () => optionalField(z.string());
const count = () => optionalField(z.number().int().nonnegative());
const stepNumber = z.number().int();
const elementIds = () => optionalField(z.array(z.union([z.number(), z.string()])));

export const CreatePlanInput = z.object({
  goal: z.string().describe('The overall objective this plan will accomplish'),
  steps: z
    .array(
      z.object({
        step_number: stepNumber.describe('Step number (1-based)'),
        description: z.string().describe('What this step accomplishes'),
        tools_to_use: optionalField(z.array(z.string())).describe('Tool names that will be called in this step'),
        success_criteria: text().describe('How to verify this step succeeded'),
        depends_on: optionalField(z.array(stepNumber)).describe('Step numbers that must complete first'),
        is_verification: optionalField(z.boolean()).describe('True if this is a verification/QC step'),
      }),
    )
    .min(1, 'give at least one step')
    .describe('Ordered list of steps to execute'),
  verification_approach: text().describe('How results will be verified'),
  estimated_tool_calls: count().describe('Approximate tool calls needed'),
  rollback_strategy: text().describe('How to handle failures'),
});
export type CreatePlanInput = z.infer<typeof CreatePlanInput>;

export const UpdatePlanInput = z.object({
  action: z.enum(['start_step', 'complete_step', 'fail_step', 'skip_step', 'add_step', 'note']).describe('The type of update to make'),
  step_number: optionalField(stepNumber).describe('The step number being updated'),
  result: text().describe('Outcome (for complete_step)'),
  reason: text().describe('Why (for fail_step, skip_step)'),
  new_step: optionalField(z.object({ description: z.string(), after_step: optionalField(z.number().int().nonnegative()) })).describe(
    'For add_step',
  ),
  note: text().describe('Observation to record (for note)'),
});
export type UpdatePlanInput = z.infer<typeof UpdatePlanInput>;

export const CompletePlanInput = z.object({
  status: z.enum(['success', 'partial_success', 'failed']).describe('Overall completion status'),
  summary: z.string().describe('Summary of what was accomplished'),
  steps_completed: count().describe('Steps completed'),
  steps_failed: count().describe('Steps failed'),
  steps_skipped: count().describe('Steps skipped'),
  issues_encountered: optionalField(z.array(z.string())).describe('Issues encountered'),
  elements_created: elementIds().describe('IDs of created elements'),
  elements_modified: elementIds().describe('IDs of modified elements'),
  recommendations: text().describe('Follow-up recommendations for the user'),
});
export type CompletePlanInput = z.infer<typeof CompletePlanInput>;

import { z } from 'zod';
import type { JsonSchemaObject } from '../../agent/tool';

/**
 * The structured dialect's inputs (seed P4-02): the JSON Schemas Claude sees, with the seed's
 * parameter descriptions, and the zod schemas that validate what comes back.
 */

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const strings = { type: 'array', items: str } as const;

export const createPlanJson: JsonSchemaObject = {
  type: 'object',
  properties: {
    goal: { ...str, description: 'The overall objective this plan will accomplish' },
    steps: {
      type: 'array',
      description: 'Ordered list of steps to execute',
      items: {
        type: 'object',
        properties: {
          step_number: { ...int, description: 'Step number (1-based)' },
          description: { ...str, description: 'What this step accomplishes' },
          tools_to_use: { ...strings, description: 'Tool names that will be called in this step' },
          success_criteria: { ...str, description: 'How to verify this step succeeded' },
          depends_on: { type: 'array', items: int, description: 'Step numbers that must complete first' },
          is_verification: { type: 'boolean', description: 'True if this is a verification/QC step' },
        },
        required: ['step_number', 'description'],
      },
    },
    verification_approach: { ...str, description: 'How results will be verified' },
    estimated_tool_calls: { ...int, description: 'Approximate tool calls needed' },
    rollback_strategy: { ...str, description: 'How to handle failures' },
  },
  required: ['goal', 'steps'],
};

export const updatePlanJson: JsonSchemaObject = {
  type: 'object',
  properties: {
    action: {
      type: 'string',
      enum: ['start_step', 'complete_step', 'fail_step', 'skip_step', 'add_step', 'note'],
      description: 'The type of update to make',
    },
    step_number: { ...int, description: 'The step number being updated' },
    result: { ...str, description: 'Outcome (for complete_step)' },
    reason: { ...str, description: 'Why (for fail_step, skip_step)' },
    new_step: {
      type: 'object',
      description: 'For add_step',
      properties: { description: str, after_step: int },
    },
    note: { ...str, description: 'Observation to record (for note)' },
  },
  required: ['action'],
};

export const completePlanJson: JsonSchemaObject = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['success', 'partial_success', 'failed'], description: 'Overall completion status' },
    summary: { ...str, description: 'Summary of what was accomplished' },
    steps_completed: { ...int, description: 'Steps completed' },
    steps_failed: { ...int, description: 'Steps failed' },
    steps_skipped: { ...int, description: 'Steps skipped' },
    issues_encountered: { ...strings, description: 'Issues encountered' },
    elements_created: { type: 'array', items: int, description: 'IDs of created elements' },
    elements_modified: { type: 'array', items: int, description: 'IDs of modified elements' },
    recommendations: { ...str, description: 'Follow-up recommendations for the user' },
  },
  required: ['status', 'summary'],
};

/** Upper bounds keep a runaway input from costing memory; the engine gives the precise errors. */
const text = (max = 4000) => z.string().max(max).nullish();
const count = z.number().int().nonnegative().max(100_000).nullish();
const stepNumber = z.number().int().positive().max(1_000_000);
const elementIds = z.array(z.union([z.number(), z.string().max(500)])).max(1000).nullish();

export const CreatePlanInput = z.object({
  goal: z.string().max(10_000),
  steps: z
    .array(
      z.object({
        step_number: stepNumber,
        description: z.string().max(10_000),
        tools_to_use: z.array(z.string().max(200)).max(50).nullish(),
        success_criteria: text(),
        depends_on: z.array(stepNumber).max(100).nullish(),
        is_verification: z.boolean().nullish(),
      }),
    )
    .min(1, 'give at least one step')
    .max(100),
  verification_approach: text(),
  estimated_tool_calls: count,
  rollback_strategy: text(),
});
export type CreatePlanInput = z.infer<typeof CreatePlanInput>;

export const UpdatePlanInput = z.object({
  action: z.enum(['start_step', 'complete_step', 'fail_step', 'skip_step', 'add_step', 'note']),
  step_number: stepNumber.nullish(),
  result: text(),
  reason: text(),
  new_step: z.object({ description: z.string().max(10_000), after_step: z.number().int().nonnegative().nullish() }).nullish(),
  note: text(),
});
export type UpdatePlanInput = z.infer<typeof UpdatePlanInput>;

export const CompletePlanInput = z.object({
  status: z.enum(['success', 'partial_success', 'failed']),
  summary: z.string().max(10_000),
  steps_completed: count,
  steps_failed: count,
  steps_skipped: count,
  issues_encountered: z.array(z.string().max(2000)).max(50).nullish(),
  elements_created: elementIds,
  elements_modified: elementIds,
  recommendations: text(),
});
export type CompletePlanInput = z.infer<typeof CompletePlanInput>;

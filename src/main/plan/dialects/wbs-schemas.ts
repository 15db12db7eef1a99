import { z } from 'zod';
import { optionalField } from '../../tools/json-schema';

/**
 * Inputs of the WBS dialect ("Planning Tool - Multi-Action" seed): zod schemas with the seed's
 * parameter descriptions; the JSON Schemas Claude sees are derived from them.
 */

const wbsId = z.union([z.string().trim().min(1).max(50), z.number().transform(String)]);
const sessionId = () => z.string().describe('Session ID from planning_initialize');

export const InitializeInput = z.object({
  problem_statement: z.string().describe('The problem or project to break down'),
  project_name: optionalField(z.string()).describe('Project name (auto-generated if not provided)'),
});

export const WbsItemInput = z.object({
  id: wbsId.describe('e.g. "1.0", "1.1"'),
  title: z.string(),
  description: optionalField(z.string()),
  level: z.number().int().min(0).max(20).describe('0 = top level'),
  priority: z.enum(['High', 'Medium', 'Low'], { message: 'priority must be "High", "Medium" or "Low"' }),
  dependencies: optionalField(z.array(wbsId)).describe('WBS ids'),
  order: optionalField(z.number()),
  parent_id: wbsId.nullish().describe('REQUIRED when level > 0; the parent must already exist'),
});
export type WbsItemInput = z.infer<typeof WbsItemInput>;

export const AddStepInput = z.object({
  session_id: sessionId(),
  step_number: z.number().int().positive().describe('Current step number (1, 2, 3, ...)'),
  planning_analysis: z.string().describe('Your planning thoughts for this step'),
  wbs_items: optionalField(z.array(WbsItemInput)).describe('WBS items to add'),
});

export const SessionOnlyInput = z.object({ session_id: sessionId() });
export const NoInput = z.object({});

import { z } from 'zod';
import type { JsonSchemaObject } from '../../agent/tool';

/** Inputs of the WBS dialect ("Planning Tool - Multi-Action" seed): JSON Schemas and zod twins. */

const sessionId = { type: 'string', description: 'Session ID from planning_initialize' };

export const initializeJson: JsonSchemaObject = {
  type: 'object',
  properties: {
    problem_statement: { type: 'string', description: 'The problem or project to break down' },
    project_name: { type: 'string', description: 'Project name (auto-generated if not provided)' },
  },
  required: ['problem_statement'],
};

export const addStepJson: JsonSchemaObject = {
  type: 'object',
  properties: {
    session_id: sessionId,
    step_number: { type: 'integer', description: 'Current step number (1, 2, 3, ...)' },
    planning_analysis: { type: 'string', description: 'Your planning thoughts for this step' },
    wbs_items: {
      type: 'array',
      description: 'WBS items to add',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'e.g. "1.0", "1.1"' },
          title: { type: 'string' },
          description: { type: 'string' },
          level: { type: 'integer', description: '0 = top level' },
          priority: { type: 'string', enum: ['High', 'Medium', 'Low'] },
          dependencies: { type: 'array', items: { type: 'string' }, description: 'WBS ids' },
          order: { type: 'integer' },
          parent_id: { type: ['string', 'null'], description: 'REQUIRED when level > 0; the parent must already exist' },
        },
        required: ['id', 'title', 'level', 'priority'],
      },
    },
  },
  required: ['session_id', 'step_number', 'planning_analysis'],
};

export const sessionOnlyJson: JsonSchemaObject = { type: 'object', properties: { session_id: sessionId }, required: ['session_id'] };
export const noInputJson: JsonSchemaObject = { type: 'object', properties: {} };

const wbsId = z.union([z.string().trim().min(1).max(50), z.number().transform(String)]);

export const InitializeInput = z.object({
  problem_statement: z.string().max(10_000),
  project_name: z.string().max(200).nullish(),
});

export const WbsItemInput = z.object({
  id: wbsId,
  title: z.string().max(10_000),
  description: z.string().max(4000).nullish(),
  level: z.number().int().min(0).max(20),
  priority: z.enum(['High', 'Medium', 'Low'], { message: 'priority must be "High", "Medium" or "Low"' }),
  dependencies: z.array(wbsId).max(100).nullish(),
  order: z.number().nullish(),
  parent_id: wbsId.nullish(),
});
export type WbsItemInput = z.infer<typeof WbsItemInput>;

export const AddStepInput = z.object({
  session_id: z.string().max(200),
  step_number: z.number().int().positive().max(100_000),
  planning_analysis: z.string().max(20_000),
  wbs_items: z.array(WbsItemInput).max(100).nullish(),
});

export const SessionOnlyInput = z.object({ session_id: z.string().max(200) });
export const NoInput = z.union([z.object({}), z.null(), z.undefined()]);

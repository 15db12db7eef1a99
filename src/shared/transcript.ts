import { z } from 'zod';
import { ErrorClass, PlanCompletion } from './plan';
import { Usage } from './usage';

/**
 * What the user sees in a chat, item by item. The API message history lives in main; the
 * transcript is its user-facing projection (plus notices the API never sees).
 */

const base = { id: z.string(), createdAt: z.string() };

export const UserItem = z.object({ ...base, kind: z.literal('user'), text: z.string() });

export const AssistantItem = z.object({
  ...base,
  kind: z.literal('assistant'),
  text: z.string(),
  status: z.enum(['streaming', 'done', 'stopped', 'error']),
});

export const ToolCallItem = z.object({
  ...base,
  kind: z.literal('tool_call'),
  toolUseId: z.string(),
  name: z.string(),
  /** MCP server name when the tool came from one. */
  server: z.string().optional(),
  summary: z.string(),
  input: z.unknown(),
  status: z.enum(['running', 'awaiting_approval', 'done', 'error', 'denied']),
  result: z.string().optional(),
  errorKind: ErrorClass.optional(),
  durationMs: z.number().nonnegative().optional(),
});

export const PlanChangeItem = z.object({
  ...base,
  kind: z.literal('plan_change'),
  text: z.string(),
  version: z.number().int().nonnegative(),
});

export const PlanCompletionItem = z.object({
  ...base,
  kind: z.literal('plan_completion'),
  goal: z.string(),
  completion: PlanCompletion,
  counts: z.object({ completed: z.number(), failed: z.number(), skipped: z.number(), total: z.number() }),
});

export const NoticeItem = z.object({
  ...base,
  kind: z.literal('notice'),
  level: z.enum(['info', 'warning', 'error']),
  /** A machine-readable cause, e.g. 'auth', 'rate_limit', 'overloaded', 'network'. */
  code: z.string().optional(),
  text: z.string(),
});

export const TranscriptItem = z.discriminatedUnion('kind', [
  UserItem,
  AssistantItem,
  ToolCallItem,
  PlanChangeItem,
  PlanCompletionItem,
  NoticeItem,
]);
export type TranscriptItem = z.infer<typeof TranscriptItem>;
export type UserItem = z.infer<typeof UserItem>;
export type AssistantItem = z.infer<typeof AssistantItem>;
export type ToolCallItem = z.infer<typeof ToolCallItem>;
export type PlanChangeItem = z.infer<typeof PlanChangeItem>;
export type PlanCompletionItem = z.infer<typeof PlanCompletionItem>;
export type NoticeItem = z.infer<typeof NoticeItem>;

/** The state of a chat's run: a discriminated union, never a pile of booleans. */
export const RunState = z.discriminatedUnion('status', [
  z.object({ status: z.literal('idle') }),
  z.object({ status: z.literal('running'), phase: z.enum(['requesting', 'streaming', 'tools']) }),
  z.object({
    status: z.literal('retrying'),
    reason: z.string(),
    attempt: z.number().int().positive(),
    maxAttempts: z.number().int().positive(),
    retryAt: z.string(),
  }),
  z.object({ status: z.literal('awaiting_approval'), requestId: z.string() }),
  z.object({ status: z.literal('awaiting_escalation'), requestId: z.string() }),
]);
export type RunState = z.infer<typeof RunState>;

export const SessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  planProgress: z
    .object({ completed: z.number().int(), total: z.number().int(), status: z.string() })
    .optional(),
  workspace: z.string().optional(),
  /** The last run ended mid-way (crash, kill): the chat offers "Resume". */
  interrupted: z.boolean().optional(),
  usage: Usage.optional(),
  /** Cost in USD per plan step, keyed `${planId}#${stepId}` (the step in progress when each request was sent). */
  stepCosts: z.record(z.string(), z.number().nonnegative()).optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

import type { z } from 'zod';
import { describeZodError } from '../../../shared/zod-error';
import { toInputSchema } from '../../tools/json-schema';
import { fail, type ToolContext, type ToolDefinition, type ToolOutcome } from '../../tools/tool';

/**
 * Builds a planning ToolDefinition: the input is validated with zod at the boundary, `run` only
 * ever sees well-typed input, and nothing thrown inside escapes `execute` (a fuzz test holds us
 * to that). The JSON Schema Claude sees is derived from the same zod schema.
 */
export interface PlanningToolSpec<T> {
  name: string;
  description: string;
  /** An object schema; its `.describe()` texts are the parameter descriptions Claude reads. */
  input: z.ZodType<T>;
  /** Appended to validation errors: how to call the tool correctly. */
  usage: string;
  summarize(input: unknown): string;
  describeDryRun(input: unknown): string;
  run(input: T, ctx: ToolContext): ToolOutcome | Promise<ToolOutcome>;
}

/**
 * A planning call larger than this is refused before it is parsed: the one guard against a
 * runaway input (the schemas state the rules; the engine's limits give the precise errors).
 */
export const MAX_PLANNING_INPUT_CHARS = 500_000;

export function planningTool<T>(spec: PlanningToolSpec<T>): ToolDefinition {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: toInputSchema(spec.input),
    input: spec.input,
    group: 'planning',
    summarize: (input) => safely(() => spec.summarize(input), spec.name),
    describeDryRun: (input) => safely(() => spec.describeDryRun(input), `Would call ${spec.name}.`),
    needsApproval: () => false,
    async execute(input, ctx) {
      try {
        const size = JSON.stringify(input ?? {}).length;
        if (size > MAX_PLANNING_INPUT_CHARS) {
          return fail('invalid_parameter', `Invalid ${spec.name} input: it is ${size.toLocaleString('en-US')} characters of JSON; the limit is ${MAX_PLANNING_INPUT_CHARS.toLocaleString('en-US')}. Send a smaller plan.`);
        }
        // A tool without parameters may be called with nothing at all.
        const parsed = spec.input.safeParse(input ?? {});
        if (!parsed.success) {
          return fail('invalid_parameter', `Invalid ${spec.name} input: ${describeZodError(parsed.error)}. ${spec.usage}`);
        }
        return await spec.run(parsed.data, ctx);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return fail('unknown', `${spec.name} failed unexpectedly: ${message}`);
      }
    },
  };
}

function safely(fn: () => string, fallback: string): string {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** Reads a property of untrusted input without throwing (for summaries and dry-run text). */
export function field(input: unknown, key: string): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  return Object.prototype.hasOwnProperty.call(input, key) ? (input as Record<string, unknown>)[key] : undefined;
}

export function textOf(value: unknown, fallback: string, max = 80): string {
  if (typeof value !== 'string' || value.trim() === '') return fallback;
  const text = value.trim().replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function countOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

export function jsonContent(value: unknown): string {
  return JSON.stringify(value);
}

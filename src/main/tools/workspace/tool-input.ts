import { z } from 'zod';
import { describeZodError } from '../../../shared/zod-error';
import type { ToolError } from '../tool';

/** Validate tool input from Claude; on failure, a message that says which field and why. */
export function parseInput<S extends z.ZodType>(
  tool: string,
  schema: S,
  input: unknown,
): { ok: true; value: z.infer<S> } | { ok: false; error: ToolError } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: { kind: 'invalid_parameter', message: `Invalid input for ${tool}: ${describeZodError(result.error)}.` } };
}

/** Input for summarize/describeDryRun, which must never throw on bad input. */
export function peek<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> | null {
  const result = schema.safeParse(input);
  return result.success ? result.data : null;
}

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const errorCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

/** "12,345" — byte counts and line counts read better with separators. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

import { z } from 'zod';
import type { JsonSchemaObject } from '../../agent/tool';

/** The Messages API `input_schema` for a zod object schema (descriptions included). */
export function toInputSchema(schema: z.ZodObject): JsonSchemaObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

import { z } from 'zod';
import type { JsonSchemaObject } from './tool';

type Json = Record<string, unknown>;

/** Nullable schemas whose null means "not given": Claude is shown only the value's own type. */
const nullMeansAbsent = z.registry();

/**
 * An optional field that also takes null as "not given" (models sometimes send null for an
 * optional parameter). The JSON Schema offers only the value's type, which keeps every request's
 * tool list short; a field where null is a documented value uses zod's `.nullish()` instead.
 */
export function optionalField<T extends z.ZodType>(schema: T): z.ZodOptional<z.ZodNullable<T>> {
  const nullable = schema.nullable();
  nullMeansAbsent.add(nullable, {});
  return nullable.optional();
}

/**
 * The Messages API `input_schema` of a tool, derived from the zod schema that validates its input
 * (one source of truth; descriptions come from `.describe()`). It describes what the tool accepts
 * as input (`io: 'input'`): unknown keys pass, as zod passes them.
 */
export function toInputSchema(schema: z.ZodType): JsonSchemaObject {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      if (!nullMeansAbsent.has(zodSchema as unknown as z.ZodType)) return;
      const shown = (jsonSchema.anyOf ?? []).find((branch) => typeof branch === 'object' && branch.type !== 'null');
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, shown);
    },
  }) as Json;
  const { $schema: _ignored, ...rest } = compactNullables(json);
  if (rest.type !== 'object') throw new Error('A tool input schema must describe an object.');
  return rest as JsonSchemaObject;
}

/**
 * `{anyOf: [X, {type: 'null'}]}` (zod's `.nullish()`) written as X with `type: [X.type, 'null']`:
 * the same set of values in fewer tokens, on every request. Only done where it is exact: X has
 * one plain type and no combinators (an enum gets null added to its values).
 */
function compactNullables(node: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = walk(value);
  // zod's .int() bounds numbers to the safe integers; JSON cannot carry more anyway.
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  const branches = out.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return out;
  const nullAt = branches.findIndex((b) => isJson(b) && b.type === 'null' && Object.keys(b).length === 1);
  const other = branches[1 - nullAt];
  // A nullable union: one flat anyOf.
  if (nullAt >= 0 && isJson(other) && Object.keys(other).length === 1 && Array.isArray(other.anyOf)) {
    return { ...out, anyOf: [...other.anyOf, branches[nullAt]] };
  }
  if (nullAt < 0 || !isJson(other) || typeof other.type !== 'string' || 'anyOf' in other || 'oneOf' in other || 'allOf' in other || 'const' in other) {
    return out;
  }
  const { anyOf: _anyOf, ...outer } = out;
  const merged: Json = { ...other, ...outer, type: [other.type, 'null'] };
  if (Array.isArray(other.enum)) merged.enum = [...other.enum, null];
  return merged;
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  return isJson(value) ? compactNullables(value) : value;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

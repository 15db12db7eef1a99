import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, describe, expect, it } from 'vitest';
import { SEED_TOOL_CALLS } from '../../../../test-support/main/seed-tool-calls';
import { Dialect } from '../../../shared/plan';
import { PlanService } from '../../plan/plan-service';
import type { ToolDefinition } from '../../tools/tool';
import { createWorkspaceTools } from '../../tools/workspace/index';
import { createAskUserTool } from '../../tools/ask-user';

// Every tool the loop offers Claude (each dialect's planning tools, ask_user, the workspace tools) shows
// Claude a JSON Schema derived from the zod schema that validates its input. Here a real JSON
// Schema validator holds the two to each other on the seeds' examples and on variants of them:
// each required property left out, each property (at any depth) given values of other types, and
// an unknown property added.

const dataDir = mkdtempSync(join(tmpdir(), 'wp-schemas-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const plans = new PlanService({ dataDir });
const offered: Array<{ label: string; tool: ToolDefinition }> = [
  ...Dialect.options.flatMap((dialect) => plans.toolsFor(dialect).map((tool) => ({ label: `${dialect} ${tool.name}`, tool }))),
  ...createWorkspaceTools(dataDir).map((tool) => ({ label: `workspace ${tool.name}`, tool })),
  { label: 'agentic ask_user', tool: createAskUserTool() },
];

const ajv = new Ajv2020({ strict: false, allErrors: false });
/** Values of every JSON type; -1, 1.5 and '' probe the numeric and length rules. */
const OTHER_VALUES: unknown[] = [true, 42, -1, 1.5, 'x', '', [], {}, null];

type Variant = { what: string; input: unknown; nullForOptional: boolean };

/** The example, and its variants: one change each. */
function variantsOf(example: unknown, schema: Record<string, unknown>): Variant[] {
  const out: Variant[] = [{ what: 'as given', input: example, nullForOptional: false }];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  if (isObject(example)) {
    for (const key of Object.keys(example)) {
      if (required.has(key)) out.push({ what: `without ${key}`, input: omit(example, key), nullForOptional: false });
    }
    out.push({ what: 'with an unknown property', input: { ...example, not_a_parameter: 1 }, nullForOptional: false });
  }
  for (const { path, optional } of paths(example, schema)) {
    for (const value of OTHER_VALUES) {
      out.push({ what: `${path.join('.')} = ${JSON.stringify(value)}`, input: setAt(example, path, value), nullForOptional: value === null && optional });
    }
  }
  return out;
}

/** Every property path (objects at any depth, the first item of arrays), with whether it is optional. */
function paths(value: unknown, schema: Record<string, unknown> | undefined, at: Array<string | number> = []): Array<{ path: Array<string | number>; optional: boolean }> {
  if (Array.isArray(value)) {
    const items = isObject(schema?.items) ? schema.items : undefined;
    return value.length ? [{ path: [...at, 0], optional: false }, ...paths(value[0], items, [...at, 0])] : [];
  }
  if (!isObject(value)) return [];
  const properties = isObject(schema?.properties) ? (schema.properties as Record<string, Record<string, unknown>>) : {};
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  return Object.keys(value).flatMap((key) => [{ path: [...at, key], optional: !required.has(key) }, ...paths(value[key], properties[key], [...at, key])]);
}

describe('offered tools: JSON Schema and zod agree', () => {
  it('covers every offered tool with an example its schema accepts', () => {
    for (const { label, tool } of offered) {
      expect(tool.input, `${label} has no zod schema`).toBeDefined();
      const examples = SEED_TOOL_CALLS[tool.name] ?? [];
      expect(examples.some((e) => tool.input!.safeParse(e).success), `${label}: no example is accepted`).toBe(true);
    }
  });

  it.each(offered.map(({ label, tool }) => [label, tool] as const))('%s accepts exactly what its zod schema accepts', (_label, tool) => {
    const validate = ajv.compile(tool.inputSchema);
    const disagreements: string[] = [];
    let checked = 0;
    for (const example of SEED_TOOL_CALLS[tool.name] ?? []) {
      for (const variant of variantsOf(example, tool.inputSchema)) {
        const byZod = tool.input!.safeParse(variant.input).success;
        const byJson = validate(variant.input) as boolean;
        checked++;
        // The one deliberate difference (json-schema.ts optionalField): null in an optional field
        // means "not given" to zod, and Claude is offered only the field's own type.
        if (byZod && !byJson && variant.nullForOptional) continue;
        if (byZod !== byJson) disagreements.push(`${variant.what}: zod ${byZod ? 'accepts' : 'refuses'}, JSON Schema ${byJson ? 'accepts' : 'refuses'}`);
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(disagreements).toEqual([]);
  });
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function omit(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

function setAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? setAt(item, rest, replacement) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head as string]: setAt(object[head as string], rest, replacement) };
}

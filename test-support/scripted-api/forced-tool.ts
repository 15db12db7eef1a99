import type { ScriptedTurn } from './scenario';

/**
 * A request whose tool_choice forces one tool ({type: 'tool', name}) is always answered with a
 * call of that tool by the real API. The script answers it when its next turn calls that tool
 * (or says it disobeys on purpose, to test a malformed reply); otherwise the next turn is kept
 * for the request it was written for, and the forced call gets the plainest input its schema
 * allows (true, 0, '', [] and {} for the required properties) — so a scenario that does not
 * script Waypoint's goal check still runs as written.
 */

type Body = { tool_choice?: unknown; tools?: unknown };
type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: unknown; enum?: unknown[] };

/** The tool a request forces, if any. */
export function forcedTool(body: Body): string | null {
  const choice = body.tool_choice as { type?: unknown; name?: unknown } | undefined;
  return choice?.type === 'tool' && typeof choice.name === 'string' ? choice.name : null;
}

/** Whether the scripted turn answers a request forcing `name`. */
export function answersForced(turn: ScriptedTurn | undefined, name: string): boolean {
  if (!turn || turn.kind === 'fault' || turn.kind === 'web_search') return false;
  if (turn.ignoresToolChoice) return true;
  return turn.kind === 'tool_use' && turn.calls.some((c) => c.name === name);
}

/** The forced tool's call with the plainest input its schema allows. */
export function plainForcedCall(body: Body, name: string): ScriptedTurn {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name?: unknown; input_schema?: Schema }>) : [];
  const schema = tools.find((t) => t.name === name)?.input_schema ?? {};
  return { kind: 'tool_use', calls: [{ name, input: plainValue(schema) }] };
}

function plainValue(schema: Schema): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return 0;
    case 'string':
      return '';
    case 'array':
      return [];
    case 'object': {
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      return Object.fromEntries(required.map((key) => [key, plainValue(schema.properties?.[key] ?? {})]));
    }
    default:
      return null;
  }
}

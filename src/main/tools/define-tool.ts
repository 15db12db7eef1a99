import type { z } from 'zod';
import type { Settings } from '../../shared/settings';
import { describeZodError } from '../../shared/zod-error';
import { toInputSchema } from './json-schema';
import type { JsonSchemaObject, ParsedInput, ParseOutcome, RuleSubject, ToolContext, ToolDefinition, ToolError, ToolGroup, ToolOutcome } from './tool';

/**
 * The one way to make a tool. The input is parsed once per call, at the loop's boundary
 * (`ToolDefinition.parse`), and every hook gets the parsed, typed value: a hook never re-checks
 * raw input, and bad input is one tool error before any hook runs.
 */
export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  /** Parses the input; its `.describe()` texts are the parameter descriptions Claude reads. */
  input: S;
  /**
   * The JSON Schema offered to Claude when it does not come from `input`: an MCP server owns its
   * tools' schemas, and Waypoint passes them through as the server wrote them.
   */
  inputSchema?: JsonSchemaObject;
  group: ToolGroup;
  server?: string;
  serverTool?: string;
  readOnly?: boolean;
  idempotent?: boolean;
  /** What the transcript card says when the input cannot be parsed, e.g. "Read a file"; the name when absent. */
  label?: string;
  /** Appended to an invalid-input error: how to call the tool right (the planning tools give one). */
  usage?: string;
  /** Input larger than this (as JSON) is refused before it is parsed: the guard against a runaway call. */
  maxInputChars?: number;
  summarize(input: z.output<S>): string;
  describeDryRun(input: z.output<S>): string;
  needsApproval(input: z.output<S>, settings: Settings): boolean;
  protectedChange?(input: z.output<S>): string | null;
  ruleSubject?(input: z.output<S>): RuleSubject | null;
  precheck?(input: z.output<S>): Promise<ToolError | null>;
  execute(input: z.output<S>, ctx: ToolContext): ToolOutcome | Promise<ToolOutcome>;
}

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolDefinition {
  // The only place a ParsedInput turns back into the tool's own type: `parse` below made it.
  const typed = (input: ParsedInput): z.output<S> => input as unknown as z.output<S>;
  const { protectedChange, ruleSubject, precheck } = spec;
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema ?? toInputSchema(spec.input),
    input: spec.input,
    group: spec.group,
    ...(spec.server !== undefined ? { server: spec.server } : {}),
    ...(spec.serverTool !== undefined ? { serverTool: spec.serverTool } : {}),
    ...(spec.readOnly ? { readOnly: true } : {}),
    ...(spec.idempotent ? { idempotent: true } : {}),
    label: spec.label ?? spec.name,
    parse: (raw) => parseToolInput(spec, raw),
    summarize: (input) => spec.summarize(typed(input)),
    describeDryRun: (input) => spec.describeDryRun(typed(input)),
    needsApproval: (input, settings) => spec.needsApproval(typed(input), settings),
    ...(protectedChange ? { protectedChange: (input: ParsedInput) => protectedChange(typed(input)) } : {}),
    ...(ruleSubject ? { ruleSubject: (input: ParsedInput) => ruleSubject(typed(input)) } : {}),
    ...(precheck ? { precheck: (input: ParsedInput) => precheck(typed(input)) } : {}),
    async execute(input, ctx) {
      try {
        return await spec.execute(typed(input), ctx);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, error: { kind: 'unknown', message: `Tool "${spec.name}" failed unexpectedly: ${message}` } };
      }
    },
  };
}

function parseToolInput(spec: ToolSpec<z.ZodType>, raw: unknown): ParseOutcome {
  // A tool without parameters may be called with nothing at all.
  const given = raw ?? {};
  if (spec.maxInputChars !== undefined) {
    const size = JSON.stringify(given)?.length ?? 0;
    if (size > spec.maxInputChars) {
      const count = (n: number) => n.toLocaleString('en-US');
      return invalid(`Invalid ${spec.name} input: it is ${count(size)} characters of JSON; the limit is ${count(spec.maxInputChars)}. Send a smaller plan.`);
    }
  }
  const parsed = spec.input.safeParse(given);
  if (parsed.success) return { ok: true, value: parsed.data as ParsedInput };
  const problems = describeZodError(parsed.error);
  // Two wordings Claude has always been shown: planning tools add how to call them right.
  return invalid(spec.usage ? `Invalid ${spec.name} input: ${problems}. ${spec.usage}` : `Invalid input for ${spec.name}: ${problems}.`);
}

const invalid = (message: string): ParseOutcome => ({ ok: false, error: { kind: 'invalid_parameter', message } });

/** Parses, then runs: one call outside the loop (an approval answered after a restart, a test). */
export async function callTool(tool: ToolDefinition, raw: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  const parsed = tool.parse(raw);
  return parsed.ok ? tool.execute(parsed.value, ctx) : { ok: false, error: parsed.error };
}

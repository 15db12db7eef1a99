import type { z } from 'zod';
import type { ErrorClass } from '../../shared/plan';
import type { Settings } from '../../shared/settings';

/**
 * A tool Claude can call. Planning tools, workspace tools and MCP tools all take this shape, so
 * the conversation loop treats them alike.
 */

/** JSON Schema object as the Messages API expects it for `input_schema`. */
export interface JsonSchemaObject {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** A question for the user (ask_user), as the tool hands it to the loop. */
export interface UserQuestion {
  question: string;
  options: string[];
  allowText: boolean;
}


export interface ToolContext {
  sessionId: string;
  /** The tool_use block this call answers (a delegate call names its sub-agent's parent by it). */
  toolUseId?: string;
  /** Aborted when the user presses Stop. */
  signal: AbortSignal;
  settings: Settings;
  /**
   * Puts the question to the user: the run ends there, the question kept as the chat's awaiting
   * state, and the answer becomes this call's tool_result (agent/pauses). What the tool returns
   * after asking is never sent. Absent where nobody can answer: a tool that needs it fails then.
   */
  askUser?(question: UserQuestion): void;
}

/**
 * What an approval rule of this call is matched on (approval-rules.ts): the command line of a
 * command, the workspace-relative path of a file change, or just the tool ('call').
 */
export type RuleSubject = { kind: 'command'; command: string } | { kind: 'path'; path: string } | { kind: 'call' };

/** A structured tool error: a class the recovery policy can act on, and a message for Claude. */
export interface ToolError {
  kind: ErrorClass;
  message: string;
}

/** An image a tool returned (an MCP screenshot), base64 as the tool gave it; the loop checks and stores it. */
export interface ToolImage {
  mediaType: string;
  data: string;
}

export type ToolOutcome =
  | { ok: true; content: string; images?: ToolImage[] }
  | { ok: false; error: ToolError };

/** 'user': tools that talk to the user (ask_user), offered in agentic mode; 'agents': delegate, which starts a sub-agent. */
export type ToolGroup = 'planning' | 'workspace' | 'mcp' | 'user' | 'agents';

declare const parsedInput: unique symbol;
/**
 * A call's input after the tool's own zod schema accepted it. Only `ToolDefinition.parse` makes
 * one, so a hook can never be handed raw input: the loop parses once per call and passes this on.
 */
export type ParsedInput = { readonly [parsedInput]: 'parsed' };

/** The parsed input, or the one tool error bad input gets (worded by define-tool.ts). */
export type ParseOutcome = { ok: true; value: ParsedInput } | { ok: false; error: ToolError };

/**
 * The one shape of a tool the registry and the loop see; built only by `defineTool`
 * (define-tool.ts), which parses the input and hands every hook the typed value.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /** The zod schema the input is parsed with (MCP tools: a JSON object of arguments; their servers own the real schema). */
  input: z.ZodType;
  group: ToolGroup;
  /** For MCP tools: the server they come from, shown in the UI. */
  server?: string;
  /** For MCP tools: the tool's own name on its server (`name` is the API name, `server__tool`). */
  serverTool?: string;
  /**
   * It only reads: it never changes a file, runs a command or acts elsewhere (MCP: the server's
   * `readOnlyHint`). Plan first lets only these (and planning calls) run before the user approves
   * the plan; a tool that does not say so is taken to change things.
   */
  readOnly?: boolean;
  /** Running it twice does what running it once does (MCP: the server's `idempotentHint`): cut off, it may simply run again. */
  idempotent?: boolean;
  /** What the transcript card says when the input cannot be parsed (no hook runs then), e.g. "Read a file". */
  label: string;
  /** Parses a call's raw input, once per call; a failure is the call's tool error. */
  parse(raw: unknown): ParseOutcome;
  /** One line for the transcript card, e.g. "Read src/app.ts (lines 1–80)". */
  summarize(input: ParsedInput): string;
  /** What would happen, for approval cards and the plan's dry-run descriptions. */
  describeDryRun(input: ParsedInput): string;
  /** True when this call needs the user's approval under these settings. */
  needsApproval(input: ParsedInput, settings: Settings): boolean;
  /**
   * Why this call always asks, in one sentence for the approval card, or null: it changes a file
   * that can make a program run (git's configuration and hooks, docs/security.md "Protected
   * changes"). Such a call asks whatever the approval rules, scopes and auto-approve settings say,
   * and its approval is never remembered. Absent: never protected.
   */
  protectedChange?(input: ParsedInput): string | null;
  /** What approval rules match for this call; null when no rule can cover it. Absent: the tool itself. */
  ruleSubject?(input: ParsedInput): RuleSubject | null;
  /**
   * A failure known before running (an edit whose old text is not in the file): the call then
   * fails at once with this error, without asking the user to approve what cannot work. Null
   * when the call may run. Optional: tools without it always run (or ask).
   */
  precheck?(input: ParsedInput): Promise<ToolError | null>;
  /** Never throws: every failure is a ToolOutcome with ok: false. */
  execute(input: ParsedInput, ctx: ToolContext): Promise<ToolOutcome>;
}

export const ok = (content: string): ToolOutcome => ({ ok: true, content });
export const fail = (kind: ErrorClass, message: string): ToolOutcome => ({ ok: false, error: { kind, message } });

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

export interface ToolContext {
  sessionId: string;
  /** Aborted when the user presses Stop. */
  signal: AbortSignal;
  settings: Settings;
}

/** A structured tool error: a class the recovery policy can act on, and a message for Claude. */
export interface ToolError {
  kind: ErrorClass;
  message: string;
}

export type ToolOutcome =
  | { ok: true; content: string }
  | { ok: false; error: ToolError };

export type ToolGroup = 'planning' | 'workspace' | 'mcp';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  group: ToolGroup;
  /** For MCP tools: the server they come from, shown in the UI. */
  server?: string;
  /** One line for the transcript card, e.g. "Read src/app.ts (lines 1–80)". */
  summarize(input: unknown): string;
  /** What would happen, for approval cards and the plan's dry-run descriptions. */
  describeDryRun(input: unknown): string;
  /** True when this call needs the user's approval under these settings. */
  needsApproval(input: unknown, settings: Settings): boolean;
  /** Never throws: every failure is a ToolOutcome with ok: false. */
  execute(input: unknown, ctx: ToolContext): Promise<ToolOutcome>;
}

export const ok = (content: string): ToolOutcome => ({ ok: true, content });
export const fail = (kind: ErrorClass, message: string): ToolOutcome => ({ ok: false, error: { kind, message } });

import { randomUUID } from 'node:crypto';
import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describeRule, type ApprovalRule } from '../../../shared/approval-rules';
import type { ApprovalRequest } from '../../../shared/prompts';
import type { Settings } from '../../../shared/settings';
import type { ToolCallItem } from '../../../shared/transcript';
import type { Pause } from './pause-kind';
import { ruleVerdict, scopeOf, subjectOf } from '../../tools/approval-rules';
import type { ParsedInput, ToolDefinition } from '../../tools/tool';
import { nowIso } from '../../common/transcript-items';
import { REPEAT_AFTER_INTERRUPTION } from '../../../shared/tool-results';

/**
 * What the executor does with a tool call after the approval check: run it, refuse it (a rule),
 * or stop the run there, the call held back until a person answers (`pause`).
 */
export type ApprovalVerdict = { kind: 'go' } | { kind: 'refused'; status: 'denied'; message: string } | { kind: 'paused'; pause: Pause };

/** Decides, without waiting, whether a tool call runs, is refused, or needs the user. */
/** `input` is the call's input as the tool parsed it (once, in the executor). */
export type ApprovalCheck = (block: ToolUseBlock, tool: ToolDefinition, input: ParsedInput, card: ToolCallItem | null) => ApprovalVerdict;

export interface ApproverDeps {
  sessionId: string;
  settings: Settings;
  /** The approval rules in force now (Settings' and this chat's): one saved a call ago counts. */
  rules(): ApprovalRule[];
  /** Whether this same call was cut off earlier with its effect unknown (SessionSummary.interruptedCalls). */
  repeated?(block: ToolUseBlock): boolean;
}

export const STOPPED_AWAITING_APPROVAL = 'The user pressed Stop while this call was waiting for approval; it did not run.';

export const denialMessage = (toolName: string): string =>
  `The user denied this ${toolName} call. Don't retry it unchanged; ask the user or choose another approach.`;

/**
 * A protected change refused by a headless run: nobody denied it, and nobody could have been
 * asked, so Claude hears that, and that retrying (or an auto-approve flag) cannot help.
 */
export const headlessProtectedDenial = (toolName: string): string =>
  `Not run: this ${toolName} call is a protected change (git's configuration or hooks), which needs a person's approval in the Waypoint app, and a headless run (waypoint run) cannot ask. Don't retry it; finish what you can without it, and say in your reply what change is needed so the user can make it or approve it in the app.`;

export const ruleDenial = (toolName: string, rule: ApprovalRule): string =>
  `Not run: the user's approval rules never allow this ${toolName} call ("${describeRule(rule)}"). Choose another approach, or ask the user.`;

const GO: ApprovalVerdict = { kind: 'go' };
const EDIT_TOOLS = new Set(['write_file', 'edit_file']);

function kindOf(tool: ToolDefinition): ApprovalRequest['kind'] {
  if (tool.group === 'mcp') return 'mcp';
  if (EDIT_TOOLS.has(tool.name)) return 'edit';
  if (tool.name === 'run_command') return 'command';
  return 'other';
}

/** A tool's own answer, failing safe: a throwing check asks the user. */
function needsApproval(tool: ToolDefinition, input: ParsedInput, settings: Settings): boolean {
  if (tool.group === 'planning') return false;
  try {
    return tool.needsApproval(input, settings);
  } catch {
    return true;
  }
}

/**
 * Why the call always asks (tool.protectedChange), failing safe: a throwing check counts as
 * protected, since it cannot prove the file is an ordinary one.
 */
function protectionOf(tool: ToolDefinition, input: ParsedInput): string | null {
  if (!tool.protectedChange) return null;
  try {
    return tool.protectedChange(input);
  } catch {
    return `This ${tool.name} call could not be checked against the files that always ask (git's configuration and hooks).`;
  }
}

function describe(tool: ToolDefinition, input: ParsedInput): { summary: string; dryRun: string } {
  const safely = (fn: () => string, fallback: string) => {
    try {
      return fn();
    } catch {
      return fallback;
    }
  };
  return {
    summary: safely(() => tool.summarize(input), tool.name),
    dryRun: safely(() => tool.describeDryRun(input), `Would call ${tool.name} with ${JSON.stringify(input)}`),
  };
}

/**
 * The approval gate in the loop: one request per risky tool call, shown as a card, answered
 * once. The run ends at it (the request, logged, is the chat's awaiting state); the answer, from
 * whatever door, takes the one answer path (prompt-answers.ts) and a new run goes on from there.
 */
export function createApprover(deps: ApproverDeps): ApprovalCheck {
  const { sessionId } = deps;
  return (block, tool, input, card) => {
    if (tool.group === 'planning') return GO;
    // Rules first: a deny rule refuses without asking; an allow rule lets it run unasked — except
    // a protected change (git's configuration or hooks), which asks whatever rules and settings say.
    const subject = subjectOf(tool, input);
    const rule = ruleVerdict(deps.rules(), tool, subject);
    if (rule?.effect === 'deny') return { kind: 'refused', status: 'denied', message: ruleDenial(tool.name, rule) };
    // The same call again after it was cut off mid-way asks like a protected change: rules,
    // auto-approve and scopes do not cover it, and its approval is not remembered.
    const protection = protectionOf(tool, input) ?? (tool.readOnly || tool.idempotent || !deps.repeated?.(block) ? null : REPEAT_AFTER_INTERRUPTION);
    if (!protection && (rule?.effect === 'allow' || !needsApproval(tool, input, deps.settings))) return GO;
    const request: ApprovalRequest = {
      id: randomUUID(),
      sessionId,
      toolUseId: block.id,
      toolName: tool.name,
      ...(tool.server ? { server: tool.server } : {}),
      kind: kindOf(tool),
      ...describe(tool, input),
      // A protected change is approved once or not at all: no scope can be remembered from it.
      scope: protection ? null : scopeOf(tool, subject),
      ...(protection ? { protected: protection } : {}),
      createdAt: nowIso(),
    };
    const events: Pause['events'] = [
      ...(card ? [{ type: 'transcript_item' as const, sessionId, item: { ...card, status: 'awaiting_approval' as const } }] : []),
      { type: 'run_state', sessionId, state: { status: 'awaiting_approval', requestId: request.id } },
      { type: 'approval_requested', sessionId, request },
    ];
    return { kind: 'paused', pause: { events } };
  };
}

import { randomUUID } from 'node:crypto';
import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../../shared/contract';
import { describeRule, type ApprovalRule } from '../../../shared/approval-rules';
import type { ApprovalDecision, ApprovalRequest } from '../../../shared/prompts';
import type { Settings } from '../../../shared/settings';
import type { ToolCallItem } from '../../../shared/transcript';
import type { PauseKind } from './pause-kind';
import type { RunPauses } from './run-pauses';
import { ruleVerdict, scopeOf, subjectOf } from '../../tools/approval-rules';
import type { ParsedInput, ToolDefinition } from '../../tools/tool';
import { nowIso } from '../../common/transcript-items';

/** What the executor does with a tool call after the approval check. */
export type ApprovalVerdict = { kind: 'go' } | { kind: 'refused'; status: 'denied' | 'error'; message: string };

/** Asks the user when a tool call needs it; resolves once they answered (or pressed Stop). */
/** `input` is the call's input as the tool parsed it (once, in the executor). */
export type ApprovalCheck = (block: ToolUseBlock, tool: ToolDefinition, input: ParsedInput, card: ToolCallItem | null) => Promise<ApprovalVerdict>;

export interface ApproverDeps {
  /** Where this run waits while its chat awaits the answer. */
  pauses: RunPauses;
  /** What an answer does (approval-kind.ts), on the one answer path. */
  kind: PauseKind<ApprovalRequest, ApprovalDecision>;
  sessionId: string;
  signal: AbortSignal;
  settings: Settings;
  /** The approval rules in force now (Settings' and this chat's): one saved a call ago counts. */
  rules(): ApprovalRule[];
  /** Applies and emits an event (the session state keeps the pending request). */
  publish(event: WaypointEvent): void;
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
 * once. The run state says what the loop waits for, so a reloaded page can ask again.
 */
export function createApprover(deps: ApproverDeps): ApprovalCheck {
  const { sessionId, publish } = deps;
  const setRunning = () => publish({ type: 'run_state', sessionId, state: { status: 'running', phase: 'tools' } });
  return async (block, tool, input, card) => {
    if (tool.group === 'planning') return GO;
    // Rules first: a deny rule refuses without asking; an allow rule lets it run unasked — except
    // a protected change (git's configuration or hooks), which asks whatever rules and settings say.
    const subject = subjectOf(tool, input);
    const rule = ruleVerdict(deps.rules(), tool, subject);
    if (rule?.effect === 'deny') return { kind: 'refused', status: 'denied', message: ruleDenial(tool.name, rule) };
    const protection = protectionOf(tool, input);
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
    if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'awaiting_approval' } });
    publish({ type: 'run_state', sessionId, state: { status: 'awaiting_approval', requestId: request.id } });
    publish({ type: 'approval_requested', sessionId, request });

    // The chat now awaits the answer (logged: a restart finds it). Whoever answers, from whatever
    // door, takes the one answer path (prompt-answers.ts); this run only waits for its effect.
    const { by, held } = await deps.pauses.settled(request, deps.signal, deps.kind);
    if (held.kind === 'result') {
      if (by === 'stop') return { kind: 'refused', status: 'error', message: held.content };
      setRunning();
      return { kind: 'refused', status: 'denied', message: held.content };
    }
    setRunning();
    if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'running' } });
    return GO;
  };
}

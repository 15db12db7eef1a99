import type { ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { ApprovalDecision } from '../../shared/prompts';
import type { Settings } from '../../shared/settings';
import { denialMessage } from '../agent/approval-step';
import { appendUser, unansweredToolUses } from '../agent/history';
import type { ChatSession } from '../agent/session-state';
import type { ToolDefinition } from '../agent/tool';

export const NOT_RUN_AFTER_RESTART = 'Not run: Waypoint was restarted while this turn waited for the user.';

export interface ResumeApprovalArgs {
  session: ChatSession;
  requestId: string;
  decision: ApprovalDecision;
  /** The tools the chat's run would offer (planning + workspace + MCP). */
  tools: ToolDefinition[];
  settings: Settings;
  publish(event: WaypointEvent): void;
}

/**
 * Answers an approval no live run waits on: the app restarted while it was pending (the request
 * came back with the session log). Approve runs the held tool call now, Deny answers it as a
 * live run would; every other open tool_use of that turn gets a "not run" result, so the history
 * is valid and the caller can start a new run that continues from there.
 */
export async function resumeApproval(args: ResumeApprovalArgs): Promise<'refused' | 'continue'> {
  const { session, publish } = args;
  const sessionId = session.summary.id;
  const pending = session.pendingApproval;
  if (!pending || pending.id !== args.requestId) return 'refused';
  const open = new Set(unansweredToolUses(session.history));
  if (!open.has(pending.toolUseId)) return 'refused';
  const block = findToolUse(session, pending.toolUseId);
  const card = session.transcript.find((i) => i.kind === 'tool_call' && i.toolUseId === pending.toolUseId);
  publish({ type: 'approval_resolved', sessionId, requestId: pending.id, decision: args.decision === 'approve' ? 'approved' : 'denied' });

  let result: ToolResultBlockParam;
  const tool = args.tools.find((t) => t.name === pending.toolName);
  if (args.decision === 'deny') {
    result = { type: 'tool_result', tool_use_id: pending.toolUseId, content: denialMessage(pending.toolName), is_error: true };
    if (card?.kind === 'tool_call') publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'denied', result: denialMessage(pending.toolName) } });
  } else if (!tool || !block) {
    const text = `Tool "${pending.toolName}" is not available any more (its MCP server or folder may be gone), so it did not run.`;
    result = { type: 'tool_result', tool_use_id: pending.toolUseId, content: text, is_error: true };
    if (card?.kind === 'tool_call') publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'error', result: text } });
  } else {
    if (card?.kind === 'tool_call') publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'running' } });
    const started = performance.now();
    const outcome = await tool
      .execute(block.input, { sessionId, signal: new AbortController().signal, settings: args.settings })
      .catch((error: unknown) => ({ ok: false as const, error: { kind: 'unknown' as const, message: `Tool "${tool.name}" failed unexpectedly: ${(error as Error).message}` } }));
    const text = outcome.ok ? outcome.content : outcome.error.message;
    result = { type: 'tool_result', tool_use_id: pending.toolUseId, content: text, ...(outcome.ok ? {} : { is_error: true }) };
    if (card?.kind === 'tool_call') {
      publish({ type: 'transcript_item', sessionId, item: { ...card, status: outcome.ok ? 'done' : 'error', result: text, durationMs: Math.round(performance.now() - started) } });
    }
  }
  const others: ToolResultBlockParam[] = [...open]
    .filter((id) => id !== pending.toolUseId)
    .map((id) => ({ type: 'tool_result', tool_use_id: id, content: NOT_RUN_AFTER_RESTART, is_error: true }));
  // In the order Claude asked for them.
  const order = [...open];
  appendUser(session.history, [result, ...others].sort((a, b) => order.indexOf(a.tool_use_id) - order.indexOf(b.tool_use_id)));
  return 'continue';
}

function findToolUse(session: ChatSession, toolUseId: string): ToolUseBlockParam | undefined {
  const assistant = session.history.findLast((m) => m.role === 'assistant');
  if (!assistant || typeof assistant.content === 'string') return undefined;
  return assistant.content.find((b): b is ToolUseBlockParam => b.type === 'tool_use' && b.id === toolUseId);
}

import { callTool } from '../../tools/define-tool';
import type { ToolResultBlockParam, ToolUseBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { z } from 'zod';
import type { WaypointEvent } from '../../../shared/contract';
import type { Settings } from '../../../shared/settings';
import type { ToolCallItem } from '../../../shared/transcript';
import { unansweredToolUses } from '../../chats/api-history';
import type { ChatSession } from '../../chats/chat-session';
import type { ToolDefinition } from '../../tools/tool';
import type { FileCheckpointHooks } from '../../recovery/recovery-types';

const NOT_RUN_AFTER_RESTART = 'Not run: Waypoint was restarted while this turn waited for the user.';

/**
 * What an answer does to the tool call the chat holds back: run it now (an approval), or give it
 * this tool_result (a denial, Claude's answer, an escalation's decision). `halt`: the run stops
 * there (the plan was aborted). `card`: the call's card shows this status, when the call has one.
 */
export type HeldCallAnswer =
  | { kind: 'run' }
  /** No call is held (a plan proposal, "Retry now"): the run that asked ended; `halt`: none follows. */
  | { kind: 'none'; halt: boolean }
  | { kind: 'result'; content: string; isError: boolean; halt: boolean; card?: ToolCallItem['status'] };

/** Every question names itself, its chat and (mostly) the tool call it holds back. */
export interface PauseRequest {
  id: string;
  sessionId: string;
  toolUseId?: string;
}

export interface PauseContext {
  session: ChatSession;
  publish(event: WaypointEvent): void;
}

/**
 * One kind of question a run pauses on (docs/architecture.md "Questions the run pauses on"): a
 * request and an answer schema (src/shared/prompts.ts) and a handler. The chat's state keeps the
 * pending request (restored from its log after a restart), so the same handler serves an answer
 * whether or not the run that asked is still alive.
 */
export interface PauseKind<Request extends PauseRequest, Answer> {
  /** The answer's schema: an answer from any door is parsed with it. */
  readonly answer: z.ZodType<Answer>;
  /** The request the chat awaits an answer to, or null. */
  pending(session: ChatSession): Request | null;
  /** Why this answer does not fit this request, in words; null when it does. */
  problem(request: Request, answer: Answer): string | null;
  /** Whether the held tool call must still be open for the answer to be carried out after a restart. */
  readonly needsOpenCall: boolean;
  /** Whether a run follows the answer (an abort needs none, and no API key). */
  continues(answer: Answer): boolean;
  /**
   * Records the answer (its `*_resolved` event, published before any await: a second answer then
   * finds nothing pending) and decides what becomes of the held call. A kind that holds no call
   * back answers at once (no promise), so the run that follows starts before the answer returns.
   */
  answered(context: PauseContext, request: Request, answer: Answer): HeldCallAnswer | Promise<HeldCallAnswer>;
  /** Stop instead of an answer: records that and gives the held call its result. */
  cancelled(context: PauseContext, request: Request): HeldCallAnswer;
}

/** What running a held call needs when no run is alive to run it (after a restart). */
export interface HeldCallTools {
  /** The tools the chat's run would offer now (planning + workspace + MCP). */
  tools: ToolDefinition[];
  settings: Settings;
  /** Its file checkpoints, taken as the executor takes them, so Edit message can put its change back. */
  checkpoints?: FileCheckpointHooks;
}

/**
 * Carries out an answer when no run waits on it: the held tool_use gets its tool_result (running
 * the call when the answer says so) and every other open one a "not run" result, in the order
 * Claude asked for them, so the history is valid and a new run can go on — unless the answer
 * halted it.
 */
export async function settleHeldCalls(
  session: ChatSession,
  toolUseId: string | undefined,
  answer: HeldCallAnswer,
  tools: HeldCallTools,
  publish: (event: WaypointEvent) => void,
  otherOpen: string = NOT_RUN_AFTER_RESTART,
): Promise<'continue' | 'halted'> {
  if (answer.kind === 'none') return answer.halt ? 'halted' : 'continue';
  const open = unansweredToolUses(session.history);
  const result = answer.kind === 'run' ? await runHeldCall(session, toolUseId, tools, publish) : answer;
  if (answer.kind === 'result' && answer.card && toolUseId !== undefined) {
    const card = session.toolCall(toolUseId);
    if (card) publish({ type: 'transcript_item', sessionId: session.summary.id, item: { ...card, status: answer.card, result: answer.content } });
  }
  const results: ToolResultBlockParam[] = open.map((id) =>
    id === toolUseId
      ? { type: 'tool_result', tool_use_id: id, content: result.content, ...(result.isError ? { is_error: true } : {}) }
      : { type: 'tool_result', tool_use_id: id, content: otherOpen, is_error: true },
  );
  session.appendUser(results);
  return result.halt ? 'halted' : 'continue';
}

/** Runs the approved call the chat held back, as the executor would have, with its card. */
async function runHeldCall(
  session: ChatSession,
  toolUseId: string | undefined,
  { tools, settings, checkpoints }: HeldCallTools,
  publish: (event: WaypointEvent) => void,
): Promise<{ content: string; isError: boolean; halt: boolean }> {
  const sessionId = session.summary.id;
  const block = toolUseId === undefined ? undefined : findToolUse(session, toolUseId);
  const card = toolUseId === undefined ? null : session.toolCall(toolUseId);
  const tool = block && tools.find((t) => t.name === block.name);
  if (!tool || !block) {
    const name = block?.name ?? card?.name ?? 'the tool';
    const text = `Tool "${name}" is not available any more (its MCP server or folder may be gone), so it did not run.`;
    if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'error', result: text } });
    return { content: text, isError: true, halt: false };
  }
  if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'running' } });
  const started = performance.now();
  await checkpoints?.before(block, tool);
  const outcome = await callTool(tool, block.input, { sessionId, signal: new AbortController().signal, settings })
    .catch((error: unknown) => ({ ok: false as const, error: { kind: 'unknown' as const, message: `Tool "${tool.name}" failed unexpectedly: ${(error as Error).message}` } }));
  await checkpoints?.after(block, tool, outcome.ok);
  const text = outcome.ok ? outcome.content : outcome.error.message;
  if (card) {
    publish({ type: 'transcript_item', sessionId, item: { ...card, status: outcome.ok ? 'done' : 'error', result: text, durationMs: Math.round(performance.now() - started) } });
  }
  return { content: text, isError: !outcome.ok, halt: false };
}

function findToolUse(session: ChatSession, toolUseId: string): ToolUseBlockParam | undefined {
  const assistant = session.history.findLast((m) => m.role === 'assistant');
  if (!assistant || typeof assistant.content === 'string') return undefined;
  return assistant.content.find((b): b is ToolUseBlockParam => b.type === 'tool_use' && b.id === toolUseId);
}

import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { z } from 'zod';
import type { WaypointEvent } from '../../../shared/contract';
import type { PromptAgent } from '../../../shared/prompts';
import type { ToolCallItem } from '../../../shared/transcript';
import { unansweredToolUses } from '../../chats/api-history';
import type { ChatSession } from '../../chats/chat-session';

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
  /** The sub-agent that asks (agent/loop/sub-agent-pauses.ts); absent for the chat's own questions. */
  agent?: PromptAgent;
}

export interface PauseContext {
  session: ChatSession;
  publish(event: WaypointEvent): void;
}

/**
 * One kind of question a run pauses on (docs/architecture.md "Questions the run pauses on"): a
 * request and an answer schema (src/shared/prompts.ts) and a handler. The run that asks ends
 * there; the chat's state keeps the pending request (restored from its log after a restart), so
 * the same handler serves an answer whether or not the app restarted in between.
 */
export interface PauseKind<Request extends PauseRequest, Answer> {
  /** The answer's schema: an answer from any door is parsed with it. */
  readonly answer: z.ZodType<Answer>;
  /** The request the chat awaits an answer to, or null. */
  pending(session: ChatSession): Request | null;
  /** Why this answer does not fit this request, in words; null when it does. */
  problem(request: Request, answer: Answer): string | null;
  /** Whether the held tool call must still be open for the answer to be carried out. */
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

/** A call before the held one left open by an older version, which ran it but logged no result. */
const NOT_RUN_AFTER_RESTART = 'Not run: Waypoint was restarted while this turn waited for the user.';

/**
 * A question a run stopped at: the events that make it the chat's awaiting state (the request,
 * the run state that names it, the held call's card). The run ends first and these go out after
 * (run-controller.ts), so an answer, from whatever door and however soon, finds no run in the
 * chat and takes the one answer path.
 */
export interface Pause {
  events: WaypointEvent[];
  /** The chat's plan budget stopped a sub-agent's request: it ends with a result saying so (budget-gate.ts). */
  budgetOfChat?: true;
}

/**
 * Records in the history what an answer (or Stop) made of the held call, before anything runs on:
 * a result the answer decided goes in as the call's tool_result (its card showing it). The calls
 * after it stay open for the run that follows (run-loop.ts runs them in order, and may pause
 * again), or, with `closeRest` (Stop, or an answer that halted the run), each gets that result.
 * An approval leaves the held call open: the run that follows runs it, with every hook any call gets.
 */
export function settleHeld(
  session: ChatSession,
  toolUseId: string | undefined,
  answer: HeldCallAnswer,
  publish: (event: WaypointEvent) => void,
  closeRest: string | null,
): void {
  if (answer.kind === 'none') return;
  const open = unansweredToolUses(session.history);
  const at = toolUseId === undefined ? -1 : open.indexOf(toolUseId);
  const results: ToolResultBlockParam[] = open.slice(0, Math.max(at, 0)).map((id) => notRun(id, NOT_RUN_AFTER_RESTART));
  if (answer.kind === 'result' && at >= 0) {
    results.push({ type: 'tool_result', tool_use_id: toolUseId!, content: answer.content, ...(answer.isError ? { is_error: true } : {}) });
    const card = session.toolCall(toolUseId!);
    if (card && answer.card) publish({ type: 'transcript_item', sessionId: session.summary.id, item: { ...card, status: answer.card, result: answer.content } });
  }
  if (closeRest !== null) results.push(...open.slice(answer.kind === 'result' ? at + 1 : Math.max(at, 0)).map((id) => notRun(id, closeRest)));
  session.appendUser(results);
}

function notRun(id: string, content: string): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: id, content, is_error: true };
}

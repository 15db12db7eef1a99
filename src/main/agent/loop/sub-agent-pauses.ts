import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../../shared/contract';
import type { PromptAgent } from '../../../shared/prompts';
import type { SubAgentWaiting, WaitingParent } from '../../../shared/subagents';
import type { ChatSession } from '../../chats/chat-session';
import { settleHeld, type HeldCallAnswer, type Pause, type PauseKind, type PauseRequest } from '../pauses/pause-kind';
import type { PauseKinds } from '../pauses/pause-kinds';

/**
 * A sub-agent's question (docs/architecture.md "Sub-agents: their questions"). The one pause
 * model ends a run at a question; a sub-agent's run does too, and its `Pause` is put to the
 * user as the chat's own: the same `*_requested` event on the chat (so its pending request, its
 * log record, "Needs you", notifications and every answer door are the ones any question has),
 * its request tagged with the sub-agent, and the chat's run state awaiting it. Unlike the chat's
 * run, the sub-agent's branch waits here in memory for the answer — its parent's delegate call is
 * open in a run that goes on (its siblings work meanwhile) — and when the answer comes the kind's
 * own handler decides what becomes of the held call, exactly as for the chat, and the sub-agent
 * runs on from its history. Nothing here knows a kind: a new kind of question needs nothing
 * sub-agent-specific.
 */

/** What the sub-agent does after its question: run on (the call the user approved, if any), or end. */
export type AfterQuestion = { kind: 'go_on'; approved: string | null } | { kind: 'halted' } | { kind: 'stopped' };

interface Waiter {
  /** What the chat's log keeps of it (`subagent_waiting`), and the sub-agents above it as they are now. */
  waiting: SubAgentWaiting;
  parents(): WaitingParent[];
  request: PauseRequest;
  /** The request as the chat shows it: the chat's id, the sub-agent's tag. */
  asked: WaypointEvent;
  awaiting: WaypointEvent;
  session: ChatSession;
  publishOwn(event: WaypointEvent): void;
  kind: PauseKind<PauseRequest, unknown>;
  done(after: AfterQuestion): void;
}

/** How an answer reaches a waiting sub-agent (prompt-answers.ts). */
export interface AgentAnswer {
  /** The sub-agent's own session: the held call is in its history. */
  session: ChatSession;
  /** The request as the sub-agent's run asked it (its own session's id: its plan, its calls). */
  request: PauseRequest;
  /** Settles the held call with what the kind's handler decided and runs the sub-agent on. */
  resume(held: HeldCallAnswer | Promise<HeldCallAnswer>): void;
}

/** Every open call after the held one, when the sub-agent waiting on it is stopped (here, and after a restart: sub-agents.ts). */
export const NOT_RUN_STOPPED = 'Not run: the user pressed Stop while this sub-agent waited for them.';

/** The questions of one chat's sub-agents: one shown at a time (the chat has one pending request per kind), the rest in line. */
export class SubAgentPauses {
  private readonly line: Waiter[] = [];

  constructor(
    private readonly chatId: string,
    /** Publishes on the chat (its state, its log, the pump). */
    private readonly publishChat: (event: WaypointEvent) => void,
    private readonly kinds: PauseKinds | null,
    /** The results of the chat's own open reply's calls that have ended (SubAgentHost): every waiting record keeps them. */
    private readonly chatFinished: () => ToolResultBlockParam[],
  ) {}

  /** The sub-agent waiting on this request of the chat, or null (answered, stopped, or not a sub-agent's). */
  waiting(requestId: string): AgentAnswer | null {
    const waiter = this.line[0];
    if (!waiter || waiter.request.id !== requestId) return null;
    return {
      session: waiter.session,
      request: waiter.request,
      resume: (held) => void this.resume(waiter, held),
    };
  }

  /**
   * Puts a sub-agent's pause to the user and waits for the answer (or the sub-agent's Stop). Its
   * own events (the held call's card) go to its transcript; the request goes to the chat.
   */
  ask(agent: PromptAgent, session: ChatSession, publishOwn: (event: WaypointEvent) => void, pause: Pause, signal: AbortSignal, readOnly: boolean, parents: () => WaitingParent[] = () => []): Promise<AfterQuestion> {
    for (const event of pause.events) publishOwn(event);
    const asked = pause.events.find((e): e is WaypointEvent & { request: PauseRequest } => 'request' in e);
    const found = asked ? this.kindOf(session, asked.request.id) : null;
    const awaiting = pause.events.find((e) => e.type === 'run_state');
    // A pause with no request of a kind that holds a call (none today) cannot be answered here.
    if (!found || !asked || !awaiting || signal.aborted) return Promise.resolve({ kind: 'stopped' });
    const request = { ...asked.request, sessionId: this.chatId, agent };
    // What the answer needs to run it on after a restart, and the sub-agents above it that wait
    // on it (the chat's log keeps it; restore-chat.ts). Main keeps it: the shells never see it (event-pump.ts).
    const history = structuredClone(session.history) as SubAgentWaiting['history'];
    const card = asked.request.toolUseId ? session.toolCall(asked.request.toolUseId) : null;
    const waiting: SubAgentWaiting = { agentId: agent.id, requestId: asked.request.id, readOnly, ...(card ? { card } : {}), history };
    return new Promise<AfterQuestion>((resolve) => {
      const waiter: Waiter = {
        waiting,
        parents,
        request: found.request,
        asked: { ...asked, sessionId: this.chatId, request } as WaypointEvent,
        awaiting: { ...awaiting, sessionId: this.chatId },
        session,
        publishOwn,
        kind: found.kind,
        done: (after) => {
          signal.removeEventListener('abort', onStop);
          resolve(after);
        },
      };
      const onStop = () => this.cancel(waiter);
      signal.addEventListener('abort', onStop, { once: true });
      this.keep(waiter);
      this.line.push(waiter);
      if (this.line.length === 1) this.show(waiter);
    });
  }

  /**
   * A call of this sub-agent (null: of the chat's own run, above every waiting one) ended while
   * one below it waits: the log's record of each waiting one under it is written again, so a
   * restart finds that call's result with it.
   */
  callEnded(agentId: string | null): void {
    for (const waiter of this.line) if (agentId === null || waiter.waiting.parents?.some((p) => p.agentId === agentId)) this.keep(waiter);
  }

  /** Logs the waiting one with the sub-agents above it, and the chat's ended calls, as they are now (the chat's log keeps the last). */
  private keep(waiter: Waiter): void {
    const parents = waiter.parents();
    const chatFinished = this.chatFinished();
    const { parents: _before, chatFinished: _ended, ...own } = waiter.waiting;
    waiter.waiting = {
      ...own,
      ...(parents.length ? { parents } : {}),
      ...(chatFinished.length ? { chatFinished: chatFinished as SubAgentWaiting['chatFinished'] } : {}),
    };
    this.publishChat({ type: 'subagent_waiting', sessionId: this.chatId, waiting: waiter.waiting });
  }

  /** The kind whose request the sub-agent's session now holds (its pause events set it). */
  private kindOf(session: ChatSession, requestId: string): { kind: PauseKind<PauseRequest, unknown>; request: PauseRequest } | null {
    for (const kind of Object.values(this.kinds ?? {}) as PauseKind<PauseRequest, unknown>[]) {
      const request = kind.pending(session);
      if (request?.id === requestId) return { kind, request };
    }
    return null;
  }

  private show(waiter: Waiter): void {
    this.publishChat(waiter.asked);
    this.publishChat(waiter.awaiting);
  }

  /** The next in line is shown; with none, the chat's run is working again. */
  private next(waiter: Waiter, stopped: boolean): void {
    const at = this.line.indexOf(waiter);
    if (at < 0) return;
    this.line.splice(at, 1);
    if (at !== 0) return;
    const following = this.line[0];
    if (following) this.show(following);
    else if (!stopped) this.publishChat({ type: 'run_state', sessionId: this.chatId, state: { status: 'running', phase: 'tools' } });
  }

  private async resume(waiter: Waiter, held: HeldCallAnswer | Promise<HeldCallAnswer>): Promise<void> {
    let settled: HeldCallAnswer;
    try {
      settled = await held;
    } catch (error) {
      console.error(`[waypoint] an answer to a sub-agent in chat ${this.chatId} failed: ${(error as Error).message}`);
      settled = { kind: 'result', content: `The answer could not be carried out: ${(error as Error).message}`, isError: true, halt: false };
    }
    const halt = settled.kind !== 'run' && settled.halt;
    settleHeld(waiter.session, waiter.request.toolUseId, settled, waiter.publishOwn, halt ? 'Not run: the user aborted the plan.' : null);
    this.next(waiter, false);
    waiter.done(halt ? { kind: 'halted' } : { kind: 'go_on', approved: settled.kind === 'run' ? (waiter.request.toolUseId ?? null) : null });
  }

  /** Stop while it waits: the kind's `cancelled` closes the question on the chat, its calls are answered, nothing more is sent. */
  private cancel(waiter: Waiter): void {
    if (!this.line.includes(waiter)) return;
    const shown = this.line[0] === waiter;
    // The chat shows only the first in line: the others were never asked there, so only theirs close.
    const context = { session: waiter.session, publish: shown ? (event: WaypointEvent) => this.publishChat({ ...event, sessionId: this.chatId } as WaypointEvent) : waiter.publishOwn };
    const held = waiter.kind.cancelled(context, waiter.request);
    settleHeld(waiter.session, waiter.request.toolUseId, held, waiter.publishOwn, NOT_RUN_STOPPED);
    this.next(waiter, true);
    waiter.done({ kind: 'stopped' });
  }
}

import { describeZodError } from '../../../shared/zod-error';
import { UserFacingError } from '../../common/errors';
import { unansweredToolUses } from '../../chats/api-history';
import type { ChatRegistry } from '../../chats/chat-registry';
import type { ChatSession } from '../../chats/chat-session';
import { parkedChain, withAncestors } from '../../chats/parked-agents';
import { ABORTED_RESULT } from '../../recovery/escalation-answer';
import { settleHeld, type HeldCallAnswer, type PauseContext, type PauseKind, type PauseRequest } from './pause-kind';
import type { PauseKinds } from './pause-kinds';
import type { RunController } from '../loop/run-controller';
import { agentKey } from '../loop/sub-agents';
import { stoppedResult } from '../../../shared/subagent-results';

export interface PromptAnswersOptions {
  chats: ChatRegistry;
  kinds: PauseKinds;
  runs: RunController;
}

/** Every open call but the held one, when Stop closes a question. */
const NOT_RUN_STOPPED = 'Not run: the user pressed Stop while Claude waited for them.';

/**
 * The one path of an answer to a question a run paused on, whatever door it came through (the
 * window, another tab, the chat's inbox from another process, `waypoint run --resume --answer`):
 * check it against the chat's awaiting state (its pending request, kept in the log), record it
 * (the kind's `*_resolved` event), decide its effect (the kind's handler), then run on from the
 * chat's state. The run that asked ended when it asked, so this is the same whether or not the
 * app restarted in between. Each question is answered once: a second answer is refused and
 * changes nothing.
 */
export class PromptAnswers {
  constructor(private readonly options: PromptAnswersOptions) {}

  get kinds(): PauseKinds {
    return this.options.kinds;
  }

  /**
   * Answers the chat's awaiting question of this kind. A stale or unknown request changes nothing
   * ({accepted: false}); an answer that does not fit the question is refused with the reason.
   */
  answer<Request extends PauseRequest, Answer>(kind: PauseKind<Request, Answer>, sessionId: string, requestId: string, raw: unknown): { accepted: boolean } {
    const session = this.options.chats.require(sessionId);
    const { runs } = this.options;
    const request = kind.pending(session);
    if (!request || request.id !== requestId) return { accepted: false };
    const parsed = kind.answer.safeParse(raw);
    if (!parsed.success) throw new UserFacingError('invalid_input', describeZodError(parsed.error));
    const answer = parsed.data;
    const problem = kind.problem(request, answer);
    if (problem) throw new UserFacingError('invalid_input', problem);
    // A sub-agent's question: its branch waits in the chat's run, which goes on.
    if (request.agent) return this.answerAgent(kind, session, request, answer);
    // A run in the chat now is not the one that asked (it ended when it asked): the question is stale.
    if (runs.isRunning(sessionId)) return { accepted: false };
    if (kind.needsOpenCall && !unansweredToolUses(session.history).includes(request.toolUseId ?? '')) return { accepted: false };
    // Without a key (or in a damaged chat) nothing is recorded: the answer is refused with why.
    const apiKey = kind.continues(answer) ? runs.readyToRun(session) : null;
    const context = this.context(session);
    // The chat is held as by a run from here until the run that follows has it (or the answer
    // settled without one): nothing else starts meanwhile, and what a plan change adds at the end
    // of a run (a finished plan's card) waits for that end, as it does while any run goes on.
    const release = runs.reserve(sessionId);
    let held: HeldCallAnswer | Promise<HeldCallAnswer>;
    try {
      held = kind.answered(context, request, answer);
    } catch (error) {
      release();
      throw error;
    }
    if (!(held instanceof Promise) && held.kind === 'none') {
      // Nothing held back (a plan proposal, "Retry now"): the run starts before this returns, so
      // a message sent meanwhile is refused as busy, as while any run goes on.
      release();
      if (!held.halt && apiKey) runs.start(session, apiKey);
      // No run follows ("End plan", a refused proposal): say the chat is idle, or a window that
      // knows it only by the list's "needs-you" stamp (after a reload) would keep counting it.
      else context.publish({ type: 'run_state', sessionId, state: { status: 'idle' } });
      return { accepted: true };
    }
    const answered = held;
    const settle = async (): Promise<HeldCallAnswer> => {
      const settled = await answered;
      settleHeld(session, request.toolUseId, settled, context.publish, settled.kind === 'result' && settled.halt ? ABORTED_RESULT : null);
      return settled;
    };
    if (!apiKey) {
      // No run follows (the plan was aborted): the held call and those after it are answered, and
      // the chat ends as a run ends.
      void settle()
        .catch((error: unknown) => console.error(`[waypoint] an answer in chat ${sessionId} failed: ${(error as Error).message}`))
        .then(() => {
          release();
          runs.endWithoutRun(session, false);
        });
      return { accepted: true };
    }
    // The run goes on from the chat's state: first the held call (run now when approved) and those after it.
    release();
    runs.goOn(session, apiKey, async () => {
      const settled = await settle();
      return settled.kind === 'run' ? (request.toolUseId ?? null) : null;
    });
    return { accepted: true };
  }

  /**
   * The answer to a sub-agent's question (agent/loop/sub-agent-pauses.ts): the same kind's
   * handler records it on the chat and decides what becomes of the held call, which is in the
   * sub-agent's own history; that sub-agent runs on, inside the chat's run. Stale (the sub-agent
   * was stopped, or the app restarted since) when no sub-agent waits on it.
   */
  private answerAgent<Request extends PauseRequest, Answer>(kind: PauseKind<Request, Answer>, session: ChatSession, request: Request, answer: Answer): { accepted: boolean } {
    const { runs } = this.options;
    const waiting = runs.agentPause(session.summary.id, request.id);
    if (!waiting) return this.answerParkedAgent(kind, session, request, answer);
    if (kind.needsOpenCall && !unansweredToolUses(waiting.session.history).includes(request.toolUseId ?? '')) return { accepted: false };
    // The handler sees the request as the sub-agent's run asked it (its plan, its session), and
    // records the answer on the chat, where the question was asked.
    waiting.resume(kind.answered(this.context(session), waiting.request as Request, answer));
    return { accepted: true };
  }

  /**
   * The answer to a sub-agent's question asked before a restart: no run holds the sub-agent, but
   * the chat's log kept its history (`subagent_waiting`) and its delegate call open
   * (store/restore-chat.ts). The kind's handler records the answer as it does any; a run of the
   * chat then runs the sub-agent on from there, and the chat's run after it.
   */
  private answerParkedAgent<Request extends PauseRequest, Answer>(kind: PauseKind<Request, Answer>, session: ChatSession, request: Request, answer: Answer): { accepted: boolean } {
    const { runs } = this.options;
    // The waiting sub-agent last, the chat's own sub-agent first (several when it is deeper than 1).
    const chain = parkedChain(session, request);
    const waiting = chain?.at(-1);
    if (!chain || !waiting || runs.isRunning(session.summary.id)) return { accepted: false };
    if (kind.needsOpenCall && !unansweredToolUses(waiting.history).includes(request.toolUseId ?? '')) return { accepted: false };
    // The sub-agent runs on, and the chat after it, whatever the answer: a key is needed first.
    const apiKey = runs.readyToRun(session);
    const held = kind.answered(this.context(session), { ...request, sessionId: agentKey(session.summary.id, waiting.agent.id) }, answer);
    runs.goOnWithAgent(session, apiKey, chain, request.toolUseId, held);
    return { accepted: true };
  }

  /**
   * "Stop sub-agent" on a sub-agent waiting since before a restart (it, or one below it, asks the
   * chat's question): no run holds it, so the Stop is the answer to that question, recorded by
   * the kind's `cancelled` as any Stop of a question is; a run of the chat then ends the stopped
   * one (and those below it) "Stopped" and runs on the ones above it with its stopped result, and
   * the chat after them, as after a live "Stop sub-agent". False when no such sub-agent waits.
   */
  stopParkedAgent(session: ChatSession, agentId: string): boolean {
    const { runs, kinds } = this.options;
    if (runs.isRunning(session.summary.id)) return false;
    const asked = <R extends PauseRequest, A>(kind: PauseKind<R, A>) => {
      const request = kind.pending(session);
      const chain = request?.agent ? parkedChain(session, request) : null;
      return request && chain ? { request, chain, cancelled: (context: PauseContext) => kind.cancelled(context, { ...request, sessionId: agentKey(session.summary.id, chain.at(-1)!.agent.id) }) } : null;
    };
    const found = asked(kinds.approval) ?? asked(kinds.escalation) ?? asked(kinds.question);
    const stopAt = found ? found.chain.findIndex((level) => level.agent.id === agentId) : -1;
    if (!found || stopAt < 0) return false;
    // The ones above it run on: a key is needed before anything is recorded.
    const apiKey = runs.readyToRun(session);
    const held = found.cancelled(this.context(session));
    runs.goOnWithAgent(session, apiKey, found.chain, found.request.toolUseId, held, stopAt);
    return true;
  }

  /**
   * Stop while a question waits (no run is in the chat: it ended when it asked): the question is
   * closed, its call answered as cancelled and every later call as not run, the end of the run
   * marked as a Stop marks it, and nothing is sent until the user writes again. False when
   * nothing was waiting.
   */
  cancel(session: ChatSession): boolean {
    const { runs, kinds } = this.options;
    if (runs.isRunning(session.summary.id)) return false;
    const context = this.context(session);
    // Only the kinds that hold a tool call back: a proposal or "Retry now" has no run to stop.
    const cancel = <R extends PauseRequest, A>(kind: PauseKind<R, A>): { request: R; held: HeldCallAnswer } | null => {
      const request = kind.pending(session);
      return request ? { request, held: kind.cancelled(context, request) } : null;
    };
    const cancelled = cancel(kinds.question) ?? cancel(kinds.approval) ?? cancel(kinds.escalation);
    if (!cancelled) return false;
    const agent = cancelled.request.agent && session.subagents.get(cancelled.request.agent.id);
    if (agent) {
      // A sub-agent waiting since before a restart: it is stopped, and so is each sub-agent above
      // it (waiting on it); the chat's delegate call says so (their calls are in their own
      // histories, which nothing runs on from now).
      const chain = withAncestors(session.subagents, agent);
      for (const stopped of chain) context.publish({ type: 'subagent_updated', sessionId: session.summary.id, subagent: { ...stopped, status: 'stopped', result: stoppedResult(stopped.plan) } });
      const top = chain.at(-1)!;
      settleHeld(session, top.parentToolUseId, { kind: 'result', content: stoppedResult(top.plan), isError: false, halt: false, card: 'done' }, context.publish, NOT_RUN_STOPPED);
    } else settleHeld(session, cancelled.request.toolUseId, cancelled.held, context.publish, NOT_RUN_STOPPED);
    runs.endWithoutRun(session, true);
    return true;
  }

  private context(session: ChatSession): PauseContext {
    return { session, publish: (event) => this.options.chats.publish(session, event) };
  }
}

import { UserFacingError } from '../../common/errors';
import type { Disposable } from '../../common/emitter';
import type { PauseBoard } from '../../common/pause-board';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import { unansweredToolUses } from '../../chats/api-history';
import type { ChatRegistry } from '../../chats/chat-registry';
import type { ChatSession } from '../../chats/chat-session';
import type { ToolRegistry } from '../../tools/tool-registry';
import type { FileCheckpointHooks } from '../../recovery/recovery-types';
import { settleHeldCalls, type HeldCallAnswer, type PauseContext, type PauseKind, type PauseRequest } from './pause-kind';
import type { PauseKinds } from './pause-kinds';
import type { SettingsSource } from '../ports';
import { toolsForTurn } from '../model/request-builder';
import type { RunController } from '../loop/run-controller';

export interface PromptAnswersOptions {
  chats: ChatRegistry;
  /** Where this process's live runs wait while their chat awaits a person. */
  pauses: PauseBoard<HeldCallAnswer>;
  kinds: PauseKinds;
  runs: RunController;
  settings: SettingsSource;
  plans: PlanServiceApi;
  toolsFor(session: ChatSession): ToolRegistry;
  /** The file checkpoints of a held call run here, as the executor would take them. */
  checkpointsFor?(session: ChatSession): FileCheckpointHooks;
}

/** Every open call but the held one, when Stop closes a question no run waits on. */
const NOT_RUN_STOPPED = 'Not run: the user pressed Stop while Claude waited for them.';

/**
 * The one path of an answer to a question a run paused on, whatever door it came through (the
 * window, another tab, the chat's inbox from another process, `waypoint run --resume --answer`):
 * check it against the chat's awaiting state (its pending request, kept in the log), record it
 * (the kind's `*_resolved` event), decide its effect (the kind's handler), then run on — a run
 * of this process still waiting is handed the effect; otherwise the held calls are settled here
 * and a new run goes on. Each question is answered once: a second answer is refused and changes
 * nothing.
 */
export class PromptAnswers implements Disposable {
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
    const { chats, runs, pauses } = this.options;
    const request = kind.pending(session);
    if (!request || request.id !== requestId) return { accepted: false };
    const parsed = kind.answer.safeParse(raw);
    if (!parsed.success) throw new UserFacingError('invalid_input', parsed.error.issues.map((i) => i.message).join('; '));
    const answer = parsed.data;
    const problem = kind.problem(request, answer);
    if (problem) throw new UserFacingError('invalid_input', problem);
    const context: PauseContext = { session, publish: (event) => chats.publish(session, event) };

    if (pauses.isAwaited(sessionId, requestId)) {
      pauses.deliver(sessionId, requestId, Promise.resolve(kind.answered(context, request, answer)));
      return { accepted: true };
    }
    // No run of this process waits on it (the app restarted, or the run that asked was another
    // process's): the same answer, and this process runs on from the chat's state.
    if (runs.isRunning(sessionId)) return { accepted: false };
    if (kind.needsOpenCall && !unansweredToolUses(session.history).includes(request.toolUseId ?? '')) return { accepted: false };
    const apiKey = kind.continues(answer) ? runs.readyToRun(session) : null;
    const held = kind.answered(context, request, answer);
    if (!(held instanceof Promise) && held.kind === 'none') {
      // Nothing held back (a plan proposal, "Retry now"): the run starts before this returns, so
      // a message sent meanwhile is refused as busy, as while any run goes on.
      if (!held.halt && apiKey) runs.start(session, apiKey);
      return { accepted: true };
    }
    const tools = this.heldCallTools(session);
    void Promise.resolve(held)
      .then((settled) => settleHeldCalls(session, request.toolUseId, settled, tools, context.publish))
      .then((outcome) => {
        if (outcome === 'continue' && apiKey) runs.start(session, apiKey);
      });
    return { accepted: true };
  }

  /**
   * Stop with no run going but a question awaiting (after a restart, or asked by a run that is
   * gone): the question is closed as a live Stop closes it (its call answered as cancelled), and
   * nothing is sent until the user writes again. False when nothing was waiting.
   */
  cancelRestored(session: ChatSession): boolean {
    const sessionId = session.summary.id;
    if (this.options.runs.isRunning(sessionId)) return false;
    const context: PauseContext = { session, publish: (event) => this.options.chats.publish(session, event) };
    const { approval, escalation, question } = this.options.kinds;
    // Only the kinds that hold a tool call back: a proposal or "Retry now" has no run to stop.
    const cancel = <R extends PauseRequest, A>(kind: PauseKind<R, A>): { toolUseId: string | undefined; held: HeldCallAnswer } | null => {
      const request = kind.pending(session);
      return request ? { toolUseId: request.toolUseId, held: kind.cancelled(context, request) } : null;
    };
    const cancelled = cancel(question) ?? cancel(approval) ?? cancel(escalation);
    if (!cancelled) return false;
    const held = cancelled.held.kind === 'result' ? { ...cancelled.held, card: 'error' as const } : cancelled.held;
    // Nothing runs here: settling only answers the open calls (a cancellation runs no call).
    void settleHeldCalls(session, cancelled.toolUseId, held, { tools: [], settings: this.options.settings.get() }, context.publish, NOT_RUN_STOPPED);
    context.publish({ type: 'run_state', sessionId, state: { status: 'idle' } });
    return true;
  }

  dispose(): void {
    this.options.pauses.cancelAll();
  }

  private heldCallTools(session: ChatSession) {
    const { settings, plans } = this.options;
    const current = settings.get();
    const tools = toolsForTurn(current, plans.dialectFor(session.summary.id, current.planningStyle), plans, this.options.toolsFor(session));
    const checkpoints = this.options.checkpointsFor?.(session);
    return { tools, settings: current, ...(checkpoints ? { checkpoints } : {}) };
  }
}

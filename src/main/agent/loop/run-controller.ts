import Anthropic from '@anthropic-ai/sdk';
import type { Disposable } from '../../common/emitter';
import { UserFacingError } from '../../common/errors';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import type { ChatRegistry } from '../../chats/chat-registry';
import type { ChatSession } from '../../chats/chat-session';
import type { ToolRegistry } from '../../tools/tool-registry';
import type { ApiRetryPolicy } from '../model/api-retry-policy';
import { rulesIn } from '../pauses/approval-scopes';
import type { PauseBoard } from '../../common/pause-board';
import type { HeldCallAnswer } from '../pauses/pause-kind';
import type { PauseKinds } from '../pauses/pause-kinds';
import type { PlanCards } from '../../chats/plan-cards';
import { pausedAfterRun, stoppedNotice, withPlanProgress } from '../plan-hooks/plan-pause';
import { runChat } from './chat-run';
import type { ApiKeySource, LoopRecovery, RequestAttachments, SettingsSource } from '../ports';
import type { RunContext } from './run-loop';
import type { ModelFacts } from '../model/model-facts';
import { meterRequest, stepInProgress, usageOf, type UsageRecord } from '../model/usage-meter';
import { withChatModel } from '../model/chat-model';

export const NO_KEY_MESSAGE =
  'No Anthropic API key is set. Open Settings and paste your API key (or start Waypoint with ANTHROPIC_API_KEY set).';

export interface RunControllerOptions {
  chats: ChatRegistry;
  settings: SettingsSource;
  apiKey: ApiKeySource;
  plans: PlanServiceApi;
  /** Where live runs wait while their chat awaits a person (one board for every kind). */
  pauses: PauseBoard<HeldCallAnswer>;
  kinds: PauseKinds;
  recovery: LoopRecovery;
  /** The tools of a chat: its workspace's, on top of the shared ones. */
  toolsFor(session: ChatSession): ToolRegistry;
  baseURL?: string;
  sdkMaxRetries: number;
  stallTimeoutMs: number;
  retryPolicy: ApiRetryPolicy;
  /** The completion cards a run's end may still owe (a plan that finished without complete_plan). */
  cards: PlanCards;
  onUsage(record: UsageRecord): void;
  /** Attached files and tools' images, filled into each request. */
  attachments: RequestAttachments;
  /** Context windows, output caps and thinking of the models (the Models API, else the built-in table). */
  models: ModelFacts;
  /** A run ended (its idle state published): a queued chat may take its slot (queued-runs.ts). */
  onRunEnded?(): void;
}

/** The runs in progress, at most one per chat: starting, stopping, and the context each gets. */
export class RunController implements Disposable {
  private readonly runs = new Map<string, AbortController>();
  /** Chats held by `reserve`, not by a run: they take no slot of "Runs at once". */
  private readonly reserved = new Set<AbortController>();
  private disposed = false;

  constructor(private readonly options: RunControllerOptions) {}

  isRunning(sessionId: string): boolean {
    return this.runs.has(sessionId);
  }

  /** Runs going now, for "Runs at once": not a reserved chat, nor a run waiting for a person (it does no work). */
  going(): number {
    let count = 0;
    for (const [sessionId, controller] of this.runs) {
      const status = this.options.chats.peek(sessionId)?.runState.status;
      if (!this.reserved.has(controller) && !status?.startsWith('awaiting_')) count++;
    }
    return count;
  }

  /** Refuses a run in a damaged (read-only) chat, a second run in the same chat, and a run without a key; returns the key. */
  readyToRun(session: ChatSession): string {
    if (session.summary.damaged) {
      throw new UserFacingError('invalid_input', `This chat's log is damaged (${session.summary.damaged}), so it opens read-only with what could be read. Export it to keep it, or start a new chat.`);
    }
    if (this.runs.has(session.summary.id)) {
      throw new UserFacingError('busy', 'Claude is still working in this chat. Wait for it to finish, or press Stop first.');
    }
    const apiKey = this.options.apiKey.getKey();
    if (!apiKey) throw new UserFacingError('invalid_input', NO_KEY_MESSAGE);
    return apiKey;
  }

  /**
   * Holds the chat as if a run were in it while work that must not meet a run is done (a rerun
   * copying the chat and putting files back); returns the release. Nothing else starts meanwhile.
   */
  reserve(sessionId: string): () => void {
    if (this.runs.has(sessionId)) throw new UserFacingError('busy', 'Claude is still working in this chat. Wait for it to finish, or press Stop first.');
    const placeholder = new AbortController();
    this.runs.set(sessionId, placeholder);
    this.reserved.add(placeholder);
    return () => {
      this.reserved.delete(placeholder);
      if (this.runs.get(sessionId) === placeholder) this.runs.delete(sessionId);
    };
  }

  /**
   * Starts a run: a turn of the conversation, or (with `job`) another piece of work that holds
   * the chat the same way — "Compact now" — which neither resumes nor pauses the plan.
   */
  start(session: ChatSession, apiKey: string, job?: (ctx: RunContext) => Promise<void>): void {
    if (this.disposed || this.runs.has(session.summary.id)) return;
    const { chats } = this.options;
    const sessionId = session.summary.id;
    const controller = new AbortController();
    this.runs.set(sessionId, controller);
    if (!job && (session.summary.interrupted || session.summary.planProgress?.paused)) {
      const resumed = withPlanProgress(session.summary, this.options.plans.getPlan(sessionId), false);
      chats.publish(session, { type: 'session_updated', session: { ...resumed, interrupted: false } });
    }
    chats.publish(session, { type: 'run_state', sessionId, state: { status: 'running', phase: job ? 'compacting' : 'requesting' } });
    // runChat never rejects (it turns a throw into a notice), so this is its end whatever happened.
    void runChat(this.context(session, apiKey, controller.signal), job).then((ending) => {
      this.runs.delete(sessionId);
      if (this.disposed) return;
      if (!job) this.settle(session, controller.signal.aborted, ending === 'turn_limit');
      chats.publish(session, { type: 'run_state', sessionId, state: { status: 'idle' } });
      chats.touch(session);
      this.options.onRunEnded?.();
    });
  }

  /**
   * The end of a run: a plan that finished in it without complete_plan gets Waypoint's card now;
   * a turn that ended with the plan unfinished (Claude's reply, the user's Stop, or "Max model
   * turns" cutting a tool loop short) pauses it, and a Stop leaves a note saying so.
   */
  private settle(session: ChatSession, stopped: boolean, turnLimit: boolean): void {
    const { chats, plans, cards } = this.options;
    const sessionId = session.summary.id;
    const plan = plans.getPlan(sessionId);
    for (const item of cards.settle(session.itemsOfKind('plan_completion'), plan)) chats.publish(session, { type: 'transcript_item', sessionId, item });
    const paused = pausedAfterRun(plan, session.history, stopped || turnLimit);
    if (stopped) chats.publish(session, { type: 'transcript_item', sessionId, item: stoppedNotice(plan, paused) });
    chats.publish(session, { type: 'session_updated', session: withPlanProgress(session.summary, plan, paused) });
  }

  /** The user's Stop; false when nothing runs in that chat. */
  stop(sessionId: string): boolean {
    const controller = this.runs.get(sessionId);
    controller?.abort();
    return !!controller;
  }

  dispose(): void {
    this.disposed = true;
    for (const controller of this.runs.values()) controller.abort();
  }

  /** One run's context, built once. */
  private context(session: ChatSession, apiKey: string, signal: AbortSignal): RunContext {
    const { options } = this;
    const sessionId = session.summary.id;
    const publish: RunContext['publish'] = (event) => options.chats.publish(session, event);
    return {
      session,
      // A fresh client per run, so a key changed in Settings applies to the next message.
      client: new Anthropic({ apiKey, baseURL: options.baseURL, maxRetries: options.sdkMaxRetries, timeout: options.stallTimeoutMs }),
      apiKey,
      signal,
      // The chat's own model ("Chat model" in its header) over the default in Settings.
      settings: () => withChatModel(options.settings.get(), session.summary),
      plans: options.plans,
      // Each chat works in its own folder (SessionSummary.workspace); tools are confined to it.
      registry: options.toolsFor(session),
      workspace: session.summary.workspace ?? null,
      stallTimeoutMs: options.stallTimeoutMs,
      retryPolicy: options.retryPolicy,
      pauses: options.pauses,
      kinds: options.kinds,
      rules: () => rulesIn(options.settings.get(), session),
      recovery: options.recovery,
      attachments: options.attachments,
      publish,
      limitsFor: (model) => options.models.limitsFor(model, apiKey),
      thinkingFor: (model) => options.models.thinkingFor(model, apiKey),
      onUsage: (usage, model, context) => {
        const record: UsageRecord = { sessionId, model, usage: usageOf(model, usage), step: stepInProgress(options.plans.getPlan(sessionId)) };
        options.onUsage(record);
        publish({ type: 'session_updated', session: { ...meterRequest(session.summary, record), ...(context ? { context } : {}) } });
      },
    };
  }
}

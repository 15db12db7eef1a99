import type Anthropic from '@anthropic-ai/sdk';
import { anthropicClient } from '../model/anthropic-sdk';
import { noticeItem } from '../../common/transcript-items';
import type { Disposable } from '../../common/emitter';
import { UserFacingError } from '../../common/errors';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import type { ChatRegistry } from '../../chats/chat-registry';
import type { ChatSession } from '../../chats/chat-session';
import type { ToolRegistry } from '../../tools/tool-registry';
import type { ApiRetryPolicy } from '../model/api-retry-policy';
import { rulesIn } from '../pauses/approval-scopes';
import type { PlanCards } from '../../chats/plan-cards';
import { pausedAfterRun, stoppedNotice, withPlanProgress } from '../plan-hooks/plan-pause';
import { runChat } from './chat-run';
import { runConversation, type RunContext } from './run-loop';
import type { ApiKeySource, LoopRecovery, RequestAttachments, SettingsSource } from '../ports';
import type { ModelFacts } from '../model/model-facts';
import { activePlanId, meterRequest, stepInProgress, usageOf, type UsageRecord } from '../model/usage-meter';
import { withChatModel } from '../model/chat-model';
import type { ProjectSource } from '../prompts/project-context';
import type { Settings } from '../../../shared/settings';
import { resumeSubAgent, SubAgentHost } from './sub-agents';
import type { ParkedLevel } from '../../chats/parked-agents';
import type { HeldCallAnswer } from '../pauses/pause-kind';
import type { AgentAnswer } from './sub-agent-pauses';
import type { PauseKinds } from '../pauses/pause-kinds';
import type { AgentEvent } from '../../../shared/agent-events';
import { PagedItems } from '../../store/paging/paged-items';

export const NO_KEY_MESSAGE =
  'No Anthropic API key is set. Open Settings and paste your API key (or start Waypoint with ANTHROPIC_API_KEY set).';

export interface RunControllerOptions {
  chats: ChatRegistry;
  settings: SettingsSource;
  apiKey: ApiKeySource;
  plans: PlanServiceApi;
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
  /** A run ended (idle, or awaiting a person, published): a queued chat may take its slot (queued-runs.ts). */
  onRunEnded?(): void;
  /** A run started in the chat, by whatever way (queued-runs.ts drops its place in the queue). */
  onRunStarted?(session: ChatSession): void;
  /** The workspace's instructions and skills, read per request (prompts/project-context.ts). */
  project?: ProjectSource;
  /** A worktree still being checked out at this folder: its tool calls wait (common/workspace-gates.ts). */
  workspaceReady?(workspace: string | null): Promise<string | null> | null;
  /** Each event of a sub-agent's own run (sub-agents.ts). */
  onAgentEvent?(event: AgentEvent): void;
  /** The kinds of question, so a sub-agent can ask as the chat does (sub-agent-pauses.ts); without them it cannot. */
  kinds?: PauseKinds;
}

/** The runs in progress, at most one per chat: starting, stopping, and the context each gets. */
export class RunController implements Disposable {
  private readonly runs = new Map<string, AbortController>();
  /** Chats held by `reserve`, not by a run: they take no slot of "Runs at once". */
  private readonly reserved = new Set<AbortController>();
  /** The sub-agents of each chat whose run is going ("Stop sub-agent" finds them here). */
  private readonly subAgents = new Map<string, SubAgentHost>();
  private disposed = false;

  constructor(private readonly options: RunControllerOptions) {}

  isRunning(sessionId: string): boolean {
    return this.runs.has(sessionId);
  }

  /**
   * Runs going now, for "Runs at once": not a reserved chat. A chat waiting for a person is not
   * here at all: its run ended when it asked.
   */
  going(): number {
    let count = 0;
    for (const controller of this.runs.values()) if (!this.reserved.has(controller)) count++;
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
    this.launch(session, apiKey, job ? { job } : { settle: () => Promise.resolve(null) });
  }

  /**
   * Runs on after an answer to a question a run ended at (prompt-answers.ts): the chat is this
   * run's at once (a message meanwhile is refused as busy; Stop stops it), `settle` records what
   * became of the held call (the answer's handler may await) and names the call the user
   * approved, if any; then the conversation goes on from the chat's state, as after a restart.
   */
  goOn(session: ChatSession, apiKey: string, settle: () => Promise<string | null>): void {
    this.launch(session, apiKey, { settle });
  }

  /**
   * The end of a question closed with no run (Stop while it waited, or an answer that aborted
   * the plan): what the end of a run does, so the chat looks as after any run (stopped or not).
   */
  endWithoutRun(session: ChatSession, stopped: boolean): void {
    if (this.disposed) return;
    this.settle(session, stopped, false);
    this.options.chats.publish(session, { type: 'run_state', sessionId: session.summary.id, state: { status: 'idle' } });
    this.options.chats.touch(session);
  }

  private launch(session: ChatSession, apiKey: string, how: { job: (ctx: RunContext) => Promise<void> } | { settle: (ctx: RunContext) => Promise<string | null> }): void {
    if (this.disposed || this.runs.has(session.summary.id)) return;
    const { chats } = this.options;
    const sessionId = session.summary.id;
    const job = 'job' in how ? how.job : null;
    const settle = 'settle' in how ? how.settle : () => Promise.resolve(null);
    const controller = new AbortController();
    this.runs.set(sessionId, controller);
    this.options.onRunStarted?.(session);
    if (!job && (session.summary.interrupted || session.summary.planProgress?.paused)) {
      const resumed = withPlanProgress(session.summary, this.options.plans.getPlan(sessionId), false);
      chats.publish(session, { type: 'session_updated', session: { ...resumed, interrupted: false } });
    }
    chats.publish(session, { type: 'run_state', sessionId, state: { status: 'running', phase: job ? 'compacting' : 'requesting' } });
    const work = job ?? (async (ctx: RunContext) => runConversation({ ...ctx, approved: await settle(ctx) }));
    // A fresh client per run, so a key changed in Settings applies to the next message. runChat
    // never rejects (it turns a throw into a notice), nor does a failed load of the SDK (a broken
    // install), so this is the run's end whatever happened.
    const ran = anthropicClient({ apiKey, baseURL: this.options.baseURL, maxRetries: this.options.sdkMaxRetries, timeout: this.options.stallTimeoutMs }).then(
      (client) => runChat(this.context(session, client, apiKey, controller.signal), work),
      (error: unknown) => {
        console.error(`[waypoint] could not load the Anthropic SDK: ${error instanceof Error ? error.message : String(error)}`);
        const text = 'Waypoint could not load the Anthropic SDK, so nothing was sent. Reinstall Waypoint (npm ci) and send again.';
        chats.publish(session, { type: 'transcript_item', sessionId, item: noticeItem('error', text, 'internal') });
      },
    );
    void ran.then((ending) => {
      this.runs.delete(sessionId);
      this.subAgents.delete(sessionId);
      if (this.disposed) return;
      if (typeof ending === 'object') {
        // A question for a person: the run is over and nothing waits in memory; these events
        // make the chat await the answer (logged, so it outlives a restart).
        for (const event of ending.paused.events) chats.publish(session, event);
        chats.touch(session);
        this.options.onRunEnded?.();
        return;
      }
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

  /**
   * Runs on after an answer to the question a sub-agent waited on when the app restarted
   * (prompt-answers.ts): a run of the chat that first runs that sub-agent on from its logged
   * history to its end, then each sub-agent above it (`chain`, the chat's own first; each one's
   * result becomes its delegate call's), then goes on as after any answer. `stopAt`: the level
   * "Stop sub-agent" stopped (sub-agents.ts `resumeSubAgent`).
   */
  goOnWithAgent(session: ChatSession, apiKey: string, chain: ParkedLevel[], toolUseId: string | undefined, held: HeldCallAnswer | Promise<HeldCallAnswer>, stopAt?: number): void {
    const sessionId = session.summary.id;
    this.launch(session, apiKey, {
      settle: async (ctx) => {
        await resumeSubAgent(this.subAgents.get(sessionId)!, ctx, chain, toolUseId, held, stopAt);
        return null;
      },
    });
  }

  /** The sub-agent of the chat's run waiting on this request, or null (prompt-answers.ts). */
  agentPause(sessionId: string, requestId: string): AgentAnswer | null {
    return this.subAgents.get(sessionId)?.pauses.waiting(requestId) ?? null;
  }

  /** "Stop sub-agent": that one and its own sub-agents; the chat's run goes on. False when it is not working. */
  stopSubAgent(sessionId: string, agentId: string): boolean {
    return this.subAgents.get(sessionId)?.stop(agentId) ?? false;
  }

  dispose(): void {
    this.disposed = true;
    for (const controller of this.runs.values()) controller.abort();
  }

  /** One run's context, built once. */
  private context(session: ChatSession, client: Anthropic, apiKey: string, signal: AbortSignal): RunContext {
    const { options } = this;
    const { project } = options;
    const sessionId = session.summary.id;
    const publish: RunContext['publish'] = (event) => options.chats.publish(session, event);
    const startedIn = session.summary.workspace ?? null;
    const subAgents = new SubAgentHost(sessionId, publish, () => session.history, () => options.settings.get().subAgentsAtOnce, () => new PagedItems(), (event) => options.onAgentEvent?.(event), options.kinds ?? null);
    this.subAgents.set(sessionId, subAgents);
    return {
      subAgents,
      session,
      client,
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
      approved: null,
      rules: () => rulesIn(options.settings.get(), session),
      recovery: options.recovery,
      attachments: options.attachments,
      publish,
      limitsFor: (model) => options.models.limitsFor(model, apiKey),
      thinkingFor: (model) => options.models.thinkingFor(model, apiKey),
      ...(project ? { project: (settings: Settings) => project.forTurn(session.summary.workspace ?? null, settings) } : {}),
      // The folder the run's tools were made for (a failed checkout moves the chat elsewhere; they still wait here and hear why).
      ...(options.workspaceReady ? { workspaceReady: () => options.workspaceReady!(startedIn) } : {}),
      onUsage: (usage, model, context, step) => {
        const plan = options.plans.getPlan(sessionId);
        const record: UsageRecord = { sessionId, model, usage: usageOf(model, usage), step: step ?? stepInProgress(plan), planId: activePlanId(plan) };
        options.onUsage(record);
        publish({ type: 'session_updated', session: { ...meterRequest(session.summary, record), ...(context ? { context } : {}) } });
      },
    };
  }
}

import { randomUUID } from 'node:crypto';
import { MessageText, describeZodError, type CallOutput, type WaypointEvent } from '../../shared/contract';
import type { ApprovalDecision, EscalationAnswer } from '../../shared/prompts';
import type { RecoveryService } from '../recovery/recovery-service';
import { resumeEscalation } from '../recovery/resume-escalation';
import type { SessionSummary } from '../../shared/transcript';
import { UserFacingError } from '../app/call-router';
import type { ApiKeySource, SettingsSource } from '../app/ports';
import { DisposableStore, Emitter, type Disposable } from '../common/emitter';
import type { PlanServiceApi } from '../plan/plan-service.types';
import { resolveRetryPolicy, type ApiRetryPolicy } from './api-retry-policy';
import { DeltaBatcher } from './delta-batcher';
import { ApprovalGate } from './approval-gate';
import { appendUserText } from './history';
import { fetchModels } from './model-catalog';
import { planItemFor, planProgress } from './plan-items';
import { ChatSession, newestFirst, titleFrom } from './session-state';
import { runChat } from './chat-run';
import type { UsageRecord } from './usage-meter';
import { toolsForTurn } from './request-builder';
import { resumeApproval } from '../sessions/resume-approval';
import type { ToolRegistry } from './tool-registry';
import { nowIso, userItem } from './transcript-items';

export interface ChatServiceOptions {
  settings: SettingsSource;
  apiKey: ApiKeySource;
  plans: PlanServiceApi;
  /** Workspace + MCP tools; planning tools come from plans.toolsFor(dialect). */
  tools: ToolRegistry;
  /** From ANTHROPIC_BASE_URL; the SDK default otherwise. */
  baseURL?: string;
  workspace: string | null;
  /** The tools of a chat whose workspace is this folder (workspace tools confined to it + `tools`). */
  toolsForWorkspace?: (workspace: string | null) => ToolRegistry;
  /** Text deltas are batched this long so a fast stream stays smooth (default 33). */
  deltaFlushMs?: number;
  /** No stream event for this long means a stalled stream (default 60 000). */
  stallTimeoutMs?: number;
  /**
   * The SDK's own retries of 429/529/5xx for non-streaming calls (default 2). The streaming
   * request always runs with 0: the loop retries it (see apiRetry).
   */
  sdkMaxRetries?: number;
  /** The loop's retries of API faults: budget, backoff, clock (see api-retry-policy.ts). */
  apiRetry?: Partial<ApiRetryPolicy>;
  /** Recovery hints, checkpoints and escalations (src/main/recovery); absent in tests of other parts. */
  recovery?: RecoveryService;
}

export const NO_KEY_MESSAGE =
  'No Anthropic API key is set. Open Settings and paste your API key (or start Waypoint with ANTHROPIC_API_KEY set).';

/** The chats, and the conversation loop that runs each of them against Claude. */
export class ChatService implements Disposable {
  private readonly emitter = new Emitter<WaypointEvent>();
  readonly onEvent = this.emitter.event;
  private readonly sessions = new Map<string, ChatSession>();
  private readonly runs = new Map<string, AbortController>();
  private readonly completedPlans = new Set<string>();
  private readonly batcher: DeltaBatcher;
  private readonly disposables = new DisposableStore();
  private disposed = false;
  private readonly retryPolicy: ApiRetryPolicy;
  private readonly approvals = new ApprovalGate();
  private readonly usage = new Emitter<UsageRecord>();
  /** Each request's priced usage (the session log records it). */
  readonly onUsage = this.usage.event;

  constructor(private readonly options: ChatServiceOptions) {
    this.retryPolicy = resolveRetryPolicy(options.apiRetry);
    this.batcher = new DeltaBatcher(options.deltaFlushMs ?? 33, (itemId, text) => {
      const session = this.sessionOfItem(itemId);
      if (session) this.deliver(session, { type: 'message_delta', sessionId: session.summary.id, itemId, text });
    });
    this.disposables.add(options.plans.onPlanUpdated((update) => this.onPlanUpdated(update)));
  }

  listSessions(): SessionSummary[] {
    return newestFirst([...this.sessions.values()].map((s) => s.summary));
  }

  getSession(sessionId: string): CallOutput<'getSession'> {
    const session = this.require(sessionId);
    return {
      session: session.summary,
      transcript: session.transcript,
      runState: session.runState,
      plan: this.options.plans.getPlan(sessionId),
      pendingApproval: session.pendingApproval,
      pendingEscalation: session.pendingEscalation,
    };
  }

  newSession(): SessionSummary {
    const now = nowIso();
    const summary: SessionSummary = {
      id: randomUUID(),
      title: 'New chat',
      createdAt: now,
      updatedAt: now,
      ...(this.options.workspace ? { workspace: this.options.workspace } : {}),
    };
    this.sessions.set(summary.id, new ChatSession(summary));
    this.emitter.fire({ type: 'session_updated', session: summary });
    return summary;
  }

  /** Accepts the message and returns at once; the run continues in the background. */
  sendMessage(sessionId: string, text: string): { itemId: string } {
    const parsed = MessageText.safeParse(text);
    if (!parsed.success) throw new UserFacingError('invalid_input', describeZodError(parsed.error));
    const session = this.require(sessionId);
    const apiKey = this.readyToRun(session);

    const item = userItem(text);
    const isFirst = !session.transcript.some((i) => i.kind === 'user');
    appendUserText(session.history, text);
    this.publish(session, { type: 'transcript_item', sessionId, item });
    this.touch(session, isFirst ? titleFrom(text) : undefined);
    this.startRun(session, apiKey);
    return { itemId: item.id };
  }

  /**
   * "Retry now" after the loop gave up on API faults: runs the conversation again from the
   * history as it is. The user's unanswered message is still its last entry (failed attempts
   * never reach the history), so nothing is typed twice. `started` is false when there is
   * nothing to retry: no message yet, or Claude already answered the last one.
   */
  retryRun(sessionId: string): { started: boolean } {
    const session = this.require(sessionId);
    const apiKey = this.readyToRun(session);
    if (session.history.at(-1)?.role !== 'user') return { started: false };
    this.startRun(session, apiKey);
    return { started: true };
  }

  stop(sessionId: string): { stopped: boolean } {
    this.require(sessionId);
    const controller = this.runs.get(sessionId);
    if (!controller) return { stopped: false };
    controller.abort();
    return { stopped: true };
  }

  /** Points the chat at another folder; its next run's tools work there. Refused mid-run. */
  setWorkspace(sessionId: string, workspace: string): SessionSummary {
    const session = this.require(sessionId);
    if (this.runs.has(sessionId)) {
      throw new UserFacingError('busy', 'Claude is working in this chat. Press Stop (or wait) before changing its workspace folder.');
    }
    this.publish(session, { type: 'session_updated', session: { ...session.summary, workspace, updatedAt: nowIso() } });
    return session.summary;
  }

  /** The user's answer to a pending approval; a stale or unknown request changes nothing. */
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): { accepted: boolean } {
    const session = this.require(sessionId);
    if (this.approvals.answer(sessionId, requestId, decision)) return { accepted: true };
    if (this.runs.has(sessionId) || session.pendingApproval?.id !== requestId) return { accepted: false };
    // Restored after a restart: no run waits on it, so answer it here and continue in a new run.
    const apiKey = this.readyToRun(session);
    const settings = this.options.settings.get();
    const tools = toolsForTurn(settings, this.options.plans.dialectFor(sessionId, settings.planningStyle), this.options.plans, this.registryFor(session));
    const publish = (event: WaypointEvent) => this.publish(session, event);
    void resumeApproval({ session, requestId, decision, tools, settings, publish }).then((outcome) => {
      if (outcome === 'continue' && !this.runs.has(sessionId) && !this.disposed) this.startRun(session, apiKey);
    });
    return { accepted: true };
  }

  /**
   * The user's answer to an escalation. A live run waiting on it resumes; after a restart (the
   * request restored with the session) the answer is applied and a new run continues the plan.
   */
  answerEscalation(sessionId: string, requestId: string, answer: EscalationAnswer): { accepted: boolean } {
    const session = this.require(sessionId);
    const recovery = this.options.recovery;
    if (!recovery) return { accepted: false };
    if (recovery.answer(sessionId, requestId, answer)) return { accepted: true };
    if (this.runs.has(sessionId) || session.pendingEscalation?.id !== requestId) return { accepted: false };
    const apiKey = answer.kind === 'abort' ? null : this.readyToRun(session);
    const publish = (event: WaypointEvent) => this.publish(session, event);
    const resumed = resumeEscalation({ sessionId, pending: session.pendingEscalation, history: session.history, plans: recovery.plans, requestId, answer, publish });
    if (resumed === 'continue' && apiKey) this.startRun(session, apiKey);
    return { accepted: resumed !== 'refused' };
  }

  /** For persistence (src/main/sessions): a chat's live state, and putting back one replayed from its log. */
  sessionState(sessionId: string): ChatSession | undefined {
    return this.sessions.get(sessionId);
  }

  adoptSession(session: ChatSession): void {
    this.sessions.set(session.summary.id, session);
  }

  renameSession(sessionId: string, title: string): SessionSummary {
    const session = this.require(sessionId);
    this.publish(session, { type: 'session_updated', session: { ...session.summary, title } });
    return session.summary;
  }

  /** Forgets the chat (its run stops, its later events are dropped) and tells subscribers. */
  removeSession(sessionId: string): boolean {
    if (!this.sessions.delete(sessionId)) return false;
    this.runs.get(sessionId)?.abort();
    this.options.plans.drop(sessionId);
    this.emitter.fire({ type: 'session_deleted', sessionId });
    return true;
  }

  listModels(): Promise<CallOutput<'listModels'>> {
    return fetchModels(this.options.apiKey.getKey(), this.options.baseURL);
  }

  dispose(): void {
    this.disposed = true;
    this.approvals.cancelAll();
    for (const controller of this.runs.values()) controller.abort();
    this.disposables.dispose();
    this.batcher.dispose();
    this.usage.dispose();
    this.emitter.dispose();
  }

  /** Refuses a second run in the same chat, and a run without a key; returns the key. */
  private readyToRun(session: ChatSession): string {
    if (this.runs.has(session.summary.id)) {
      throw new UserFacingError('busy', 'Claude is still working in this chat. Wait for it to finish, or press Stop first.');
    }
    const apiKey = this.options.apiKey.getKey();
    if (!apiKey) throw new UserFacingError('invalid_input', NO_KEY_MESSAGE);
    return apiKey;
  }

  private startRun(session: ChatSession, apiKey: string): void {
    const sessionId = session.summary.id;
    const controller = new AbortController();
    this.runs.set(sessionId, controller);
    if (session.summary.interrupted) this.publish(session, { type: 'session_updated', session: { ...session.summary, interrupted: false } });
    this.publish(session, { type: 'run_state', sessionId, state: { status: 'running', phase: 'requesting' } });
    void this.run(session, apiKey, controller);
  }

  private async run(session: ChatSession, apiKey: string, controller: AbortController): Promise<void> {
    const sessionId = session.summary.id;
    try {
      await runChat(
        {
          settings: this.options.settings,
          plans: this.options.plans,
          baseURL: this.options.baseURL,
          // Each chat works in its own folder (SessionSummary.workspace); tools are confined to it.
          registry: this.registryFor(session),
          sdkMaxRetries: this.options.sdkMaxRetries ?? 2,
          stallTimeoutMs: this.options.stallTimeoutMs ?? 60_000,
          retryPolicy: this.retryPolicy,
          approvals: this.approvals,
          recovery: this.options.recovery,
          batcher: this.batcher,
          publish: (event) => this.publish(session, event),
          onUsage: (record) => this.usage.fire(record),
        },
        session,
        apiKey,
        controller.signal,
      );
    } finally {
      this.runs.delete(sessionId);
      if (!this.disposed) {
        this.publish(session, { type: 'run_state', sessionId, state: { status: 'idle' } });
        this.touch(session);
      }
    }
  }

  private registryFor(session: ChatSession): ToolRegistry {
    return this.options.toolsForWorkspace?.(session.summary.workspace ?? null) ?? this.options.tools;
  }

  private onPlanUpdated(update: Parameters<Parameters<PlanServiceApi['onPlanUpdated']>[0]>[0]): void {
    const session = this.sessions.get(update.sessionId);
    if (!session) return;
    const newlyCompleted = !!update.plan.completion && !this.completedPlans.has(update.plan.id);
    if (newlyCompleted) this.completedPlans.add(update.plan.id);
    this.publish(session, { type: 'transcript_item', sessionId: update.sessionId, item: planItemFor(update, newlyCompleted) });
    this.publish(session, { type: 'session_updated', session: { ...session.summary, planProgress: planProgress(update.plan) } });
  }

  /** Bumps updatedAt (and sets the title) and tells subscribers. */
  private touch(session: ChatSession, title?: string): void {
    const summary = { ...session.summary, updatedAt: nowIso(), ...(title ? { title } : {}) };
    this.publish(session, { type: 'session_updated', session: summary });
  }

  /** Every event goes through here: pending deltas first, then state, then subscribers. */
  private publish(session: ChatSession, event: WaypointEvent): void {
    // A deleted chat's run may still be winding down: its events must not bring it back.
    if (this.disposed || this.sessions.get(session.summary.id) !== session) return;
    this.batcher.flush();
    this.deliver(session, event);
  }

  private deliver(session: ChatSession, event: WaypointEvent): void {
    session.apply(event);
    this.emitter.fire(event);
  }

  private sessionOfItem(itemId: string): ChatSession | undefined {
    for (const session of this.sessions.values()) if (session.item(itemId)) return session;
    return undefined;
  }

  private require(sessionId: string): ChatSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new UserFacingError('not_found', `There is no chat with id "${sessionId.slice(0, 100)}". It may have been deleted; pick another chat or start a new one.`);
    return session;
  }
}

import { BudgetUsd, type BudgetAnswer } from '../../../shared/budget';
import { MessageText, MessageTextOrEmpty, describeZodError } from '../../../shared/contract';
import type { Attachment } from '../../../shared/attachments';
import type { ReviewDecision } from '../../../shared/plan-review';
import { proposalProblem } from '../../plan/engine/plan-review';
import type { ApprovalDecision, EscalationAnswer } from '../../../shared/prompts';
import { Emitter, type Disposable } from '../../common/emitter';
import { UserFacingError } from '../../common/errors';
import { userItem } from '../../common/transcript-items';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import { attachmentBlock } from '../../attachments/attachment-blocks';
import { nextUserMark } from '../../chats/history-cut';
import type { ChatRegistry } from '../../chats/chat-registry';
import type { Chats } from '../../chats/chats';
import { titleFrom, type ChatSession } from '../../chats/chat-session';
import type { ToolRegistry } from '../../tools/tool-registry';
import { resolveRetryPolicy, type ApiRetryPolicy } from '../model/api-retry-policy';
import { rememberScope } from '../pauses/approval-scopes';
import { pauseKinds, type PauseKinds } from '../pauses/pause-kinds';
import { Reruns } from './rerun';
import type { ModelFacts } from '../model/model-facts';
import { canCompact } from '../context/context-fit';
import { runCompaction } from '../context/compact-run';
import type { ApiKeySource, LoopRecovery, RequestAttachments, SettingsSource } from '../ports';
import { PromptAnswers } from '../pauses/prompt-answers';
import { RunController } from './run-controller';
import { QueuedRuns } from './queued-runs';
import type { UsageRecord } from '../model/usage-meter';
import type { ProjectSource } from '../prompts/project-context';
import type { AgentEvent } from '../../../shared/agent-events';


export interface ChatServiceOptions {
  /** The chats of record the runs work on (sessions/chats.ts). */
  chats: Chats;
  settings: SettingsSource;
  apiKey: ApiKeySource;
  plans: PlanServiceApi;
  /** Context windows, output caps and thinking of the models, shared with Settings' model list. */
  models: ModelFacts;
  /** From ANTHROPIC_BASE_URL; the SDK default otherwise. */
  baseURL?: string;
  /**
   * The tools of a chat whose workspace is this folder: its workspace tools confined to it, on
   * top of the shared MCP tools (tools/workspace-registries.ts); planning tools come from
   * plans.toolsFor(dialect).
   */
  toolsForWorkspace(workspace: string | null): ToolRegistry;
  /** No stream event for this long means a stalled stream (default 60 000). */
  stallTimeoutMs?: number;
  /**
   * The SDK's own retries of 429/529/5xx for non-streaming calls (default 2). The streaming
   * request always runs with 0: the loop retries it (see apiRetry).
   */
  sdkMaxRetries?: number;
  /** The loop's retries of API faults: budget, backoff, clock (see api-retry-policy.ts). */
  apiRetry?: Partial<ApiRetryPolicy>;
  /** Recovery hints, checkpoints and escalations (src/main/recovery). */
  recovery: LoopRecovery;
  /** Attached files and tools' images (attachments/attachment-service.ts). */
  attachments: RequestAttachments;
  /** No person answers approvals in this process (waypoint run answers them itself): a protected change it refuses tells Claude why. */
  headless?: boolean;
  /** The workspace's instructions and skills, read per request (prompts/project-context.ts). */
  project?: ProjectSource;
  /** A worktree still being checked out at this folder: its tool calls wait (common/workspace-gates.ts). */
  workspaceReady?(workspace: string | null): Promise<string | null> | null;
}

/**
 * A question restored after a restart holds back the answer to Claude's tool call: a new message
 * (or a retry) now would send a history with that tool_use unanswered, which the API refuses.
 */
function refuseWhileAsked(session: ChatSession): void {
  if (session.pendingApproval) {
    throw new UserFacingError('busy', `Claude is waiting for your answer to "${session.pendingApproval.summary}": press Approve or Deny first.`);
  }
  if (session.pendingEscalation) {
    throw new UserFacingError('busy', `Claude is waiting for your answer about the stuck step "${session.pendingEscalation.stepTitle}": skip it, abort the plan or send guidance first.`);
  }
  if (session.pendingQuestion) {
    throw new UserFacingError('busy', `Claude asked you: "${session.pendingQuestion.question.slice(0, 200)}". Answer it first, or press Stop to cancel the question.`);
  }
}

/**
 * The runs of the chats: what starts, stops, reruns and answers a run, as the app's calls see
 * it. The chats themselves (listing, opening, naming, plan edits) are `Chats`, below it; the work
 * here is done by parts with one job each: the runs (RunController), the answers to the questions
 * runs pause on (PromptAnswers) and reruns from an earlier message (Reruns).
 */
export class ChatService implements Disposable {
  /** Every chat's state and its one event stream (Chats.registry). */
  private readonly chats: ChatRegistry;
  private readonly runs: RunController;
  /** Chats whose message waits for a slot of "Runs at once" (queued-runs.ts). */
  private readonly queue: QueuedRuns;
  private readonly prompts: PromptAnswers;
  /** Edit message, Retry reply, the versions they make and the preview of the files they would put back (rerun.ts). */
  readonly reruns: Reruns;
  private readonly usage = new Emitter<UsageRecord>();
  private readonly deletions: Disposable;
  private readonly settingsChanges: Disposable;
  /** Each request's priced usage (the session log records it). */
  readonly onUsage = this.usage.event;
  private readonly agentEvents = new Emitter<AgentEvent>();
  /** Each event of a sub-agent's own run, named (headless --json prints them; the chat keeps only its snapshot). */
  readonly onAgentEvent = this.agentEvents.event;

  constructor(private readonly options: ChatServiceOptions) {
    const toolsFor = (session: ChatSession) => options.toolsForWorkspace(session.summary.workspace ?? null);
    const { settings, plans, recovery } = options;
    this.chats = options.chats.registry;
    const kinds = pauseKinds({
      headless: options.headless ?? false,
      plans: recovery.plans,
      proposals: plans,
      remember: (session, request, decision) =>
        rememberScope({ settings, session, publish: (event) => this.chats.publish(session, event) }, request, decision),
    });
    this.runs = new RunController({
      models: options.models,
      chats: this.chats,
      settings,
      apiKey: options.apiKey,
      plans,
      recovery,
      toolsFor,
      baseURL: options.baseURL,
      sdkMaxRetries: options.sdkMaxRetries ?? 2,
      stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
      retryPolicy: resolveRetryPolicy(options.apiRetry),
      cards: options.chats.cards,
      onUsage: (record) => this.usage.fire(record),
      attachments: options.attachments,
      ...(options.project ? { project: options.project } : {}),
      ...(options.workspaceReady ? { workspaceReady: options.workspaceReady } : {}),
      // Every run's end, a pause for a person included (that run ends too), frees its slot.
      onRunEnded: () => this.queue.drain(),
      // A run started outside the queue's drain (a message with a slot free, an answer going on,
      // waypoint run --resume) takes the chat off the queue, ticket and all: else the queue, or a
      // restart's restore(), would start it again.
      onRunStarted: (session) => this.queue.started(session),
      onAgentEvent: (event) => this.agentEvents.fire(event),
      kinds,
    });
    this.queue = new QueuedRuns({
      chats: this.chats,
      settings,
      going: () => this.runs.going(),
      isRunning: (sessionId) => this.runs.isRunning(sessionId),
      start: (session) => this.runs.start(session, this.runs.readyToRun(session)),
    });
    this.prompts = new PromptAnswers({ chats: this.chats, kinds, runs: this.runs });
    this.reruns = new Reruns({
      chats: this.chats,
      runs: this.runs,
      plans,
      recovery,
      refuseWhileAsked,
      isQueued: (sessionId) => this.queue.isQueued(sessionId),
    });
    // A deleted chat's run stops (or it leaves the queue); its later events are dropped by the chats.
    this.deletions = this.chats.onEvent((event) => {
      if (event.type !== 'session_deleted') return;
      this.queue.forget(event.sessionId);
      this.runs.stop(event.sessionId);
    });
    // A higher "Runs at once" starts queued chats at once.
    this.settingsChanges = settings.onDidChange(() => this.queue.drain());
  }

  /**
   * "Stop sub-agent": stops that sub-agent (and its own); its delegate call's result says so. One
   * waiting for the person since before a restart is stopped through its question (prompt-answers.ts).
   */
  stopSubAgent(sessionId: string, agentId: string): { stopped: boolean; reason?: string } {
    const session = this.chats.require(sessionId);
    if (this.runs.stopSubAgent(sessionId, agentId)) return { stopped: true };
    if (this.prompts.stopParkedAgent(session, agentId)) return { stopped: true };
    return { stopped: false, reason: 'That sub-agent is not working now.' };
  }

  /** Whether a run (or work that holds the chat like one) is in the chat now. */
  isRunning(sessionId: string): boolean {
    return this.runs.isRunning(sessionId);
  }

  /**
   * After the chats are loaded (windowed shells only: `waypoint run` is one chat): the chats
   * still queued when the app quit queue again in their order, and the first start as slots allow.
   * `claim` (persistence's) keeps a chat another live process writes from starting here too.
   */
  restoreQueue(claim?: (sessionId: string) => void): void {
    this.queue.restore(claim);
  }

  /**
   * Accepts the message and returns at once; the run continues in the background. Attachments
   * (already checked and stored) go before the text; with them the text may be empty.
   */
  sendMessage(sessionId: string, text: string, attachments: readonly Attachment[] = []): { itemId: string } {
    const parsed = (attachments.length ? MessageTextOrEmpty : MessageText).safeParse(text);
    if (!parsed.success) throw new UserFacingError('invalid_input', describeZodError(parsed.error));
    const session = this.chats.require(sessionId);
    // Refused before the message goes in (busy, no key, a damaged log); its run may start now or queue.
    this.runs.readyToRun(session);
    refuseWhileAsked(session);
    return this.post(session, text, attachments);
  }

  /**
   * Plan first: "Approve plan" or "Send feedback" on the proposal the user saw at `version`, a
   * door onto the one answer path (the `plan` pause kind): a plan change, then a user message
   * that says so, and Claude's next run starts.
   */
  reviewPlan(sessionId: string, request: { planId: string; version: number; decision: ReviewDecision }): { itemId: string } {
    const session = this.chats.require(sessionId);
    // Busy or without a key: refused before anything changes.
    this.runs.readyToRun(session);
    refuseWhileAsked(session);
    const { plan } = this.prompts.kinds;
    const problem = proposalProblem(this.options.plans.getPlan(sessionId), request.planId, request.version);
    if (problem) throw new UserFacingError('invalid_input', problem);
    const { accepted } = this.prompts.answer(plan, sessionId, request.planId, request);
    const item = session.itemsOfKind('user').at(-1);
    if (!accepted || !item) throw new UserFacingError('invalid_input', 'The plan changed while your answer was on its way. Review it again.');
    // The kind posts the message before it awaits anything, so it is the chat's last user item now.
    return { itemId: item.id };
  }

  /**
   * "Retry now" after the loop gave up on API faults, a door onto the one answer path (the
   * `retry` pause kind): runs the conversation again from the history as it is. The user's
   * unanswered message is still its last entry (failed attempts never reach the history), so
   * nothing is typed twice. Without that awaiting state (a run cut short by a quit, say) the
   * kept message is resent all the same. `started` is false when there is nothing to retry: no
   * message yet, or Claude already answered the last one.
   */
  retryRun(sessionId: string): { started: boolean } {
    const session = this.chats.require(sessionId);
    const apiKey = this.runs.readyToRun(session);
    refuseWhileAsked(session);
    this.refuseWhileQueued(session);
    const { retry } = this.prompts.kinds;
    const awaiting = retry.pending(session);
    if (awaiting) return { started: this.prompts.answer(retry, sessionId, awaiting.id, 'retry').accepted };
    if (session.history.at(-1)?.role !== 'user') return { started: false };
    this.runs.start(session, apiKey);
    return { started: true };
  }

  /**
   * "Compact now": Claude summarises the older turns in a run of its own. Refused while Claude
   * works, and when there is nothing before the latest turn to summarise.
   */
  compactSession(sessionId: string): { started: boolean } {
    const session = this.chats.require(sessionId);
    const apiKey = this.runs.readyToRun(session);
    this.refuseWhileQueued(session);
    if (!canCompact(session.history, session.compaction)) {
      throw new UserFacingError('invalid_input', 'Nothing to compact yet: only the latest turn is sent in full, and it always is.');
    }
    this.runs.start(session, apiKey, runCompaction);
    return { started: true };
  }

  /**
   * Stops the run; a queued chat leaves the queue (its message stays in the chat, not sent: send
   * again or "Retry now" to send it); with neither, closes the question the chat awaits (the run
   * that asked ended when it asked).
   */
  stop(sessionId: string): { stopped: boolean } {
    const session = this.chats.require(sessionId);
    return { stopped: this.runs.stop(sessionId) || this.queue.unqueue(session) || this.prompts.cancel(session) };
  }

  /** The user's answer to a pending approval; a stale or unknown request changes nothing. */
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): { accepted: boolean } {
    return this.prompts.answer(this.prompts.kinds.approval, sessionId, requestId, decision);
  }

  /** The user's answer to an escalation: applied to the plan, and a run goes on, unless it aborted the plan. */
  answerEscalation(sessionId: string, requestId: string, answer: EscalationAnswer): { accepted: boolean } {
    return this.prompts.answer(this.prompts.kinds.escalation, sessionId, requestId, answer);
  }

  /** Claude's question (ask_user): the answer goes back as the tool result, verbatim. */
  answerQuestion(sessionId: string, requestId: string, answer: string): { accepted: boolean } {
    return this.prompts.answer(this.prompts.kinds.question, sessionId, requestId, answer);
  }

  /** "Extend budget" or "End plan" on the plan's "Budget reached". */
  answerBudget(sessionId: string, requestId: string, answer: BudgetAnswer): { accepted: boolean } {
    return this.prompts.answer(this.prompts.kinds.budget, sessionId, requestId, answer);
  }

  /** "Save budget": the plan's new dollar budget; refused with why (a replaced or closed plan). */
  setPlanBudget(sessionId: string, planId: string, usd: number): { version: number } {
    this.chats.require(sessionId);
    const figure = BudgetUsd.safeParse(usd);
    if (!figure.success) throw new UserFacingError('invalid_input', describeZodError(figure.error));
    const result = this.options.plans.setBudget(sessionId, planId, figure.data);
    if (!result.ok) throw new UserFacingError('invalid_input', result.error);
    return { version: result.plan.version };
  }

  /** An answer of any kind, still unparsed (another process's, through the chat's inbox). */
  answerPause(sessionId: string, kind: keyof PauseKinds, requestId: string, answer: unknown): { accepted: boolean } {
    const { kinds } = this.prompts;
    if (kind === 'approval') return this.prompts.answer(kinds.approval, sessionId, requestId, answer);
    if (kind === 'escalation') return this.prompts.answer(kinds.escalation, sessionId, requestId, answer);
    if (kind === 'plan') return this.prompts.answer(kinds.plan, sessionId, requestId, answer);
    if (kind === 'retry') return this.prompts.answer(kinds.retry, sessionId, requestId, answer);
    if (kind === 'budget') return this.prompts.answer(kinds.budget, sessionId, requestId, answer);
    return this.prompts.answer(kinds.question, sessionId, requestId, answer);
  }

  /** Dispose the chats first (Chats.dispose): what stopping the runs and questions fires is not news to anyone. */
  dispose(): void {
    this.deletions.dispose();
    this.settingsChanges.dispose();
    this.runs.dispose();
    this.usage.dispose();
  }

  /** A user message (attachments before the text) into the chat, and the run that answers it. */
  private post(session: ChatSession, text: string, attachments: readonly Attachment[] = []): { itemId: string } {
    const sessionId = session.summary.id;
    // Where the message starts in the history: Edit message and Retry reply cut there.
    const item = { ...userItem(text), historyAt: nextUserMark(session.history), ...(attachments.length ? { attachments: [...attachments] } : {}) };
    const isFirst = session.countOf('user') === 0;
    session.appendUser([...attachments.map(attachmentBlock), ...(text.trim() ? [{ type: 'text' as const, text }] : [])]);
    this.chats.publish(session, { type: 'transcript_item', sessionId, item });
    this.chats.touch(session, isFirst ? titleFrom(text.trim() ? text : attachments.map((a) => a.name).join(', ')) : undefined);
    this.queue.schedule(session);
    return { itemId: item.id };
  }

  /** A queued chat's message goes when its turn comes; another way to start it now would jump the queue. */
  private refuseWhileQueued(session: ChatSession): void {
    if (this.queue.isQueued(session.summary.id)) {
      throw new UserFacingError('busy', 'This chat is queued: it starts when one of the chats running now ends. Press Stop to take it off the queue.');
    }
  }
}

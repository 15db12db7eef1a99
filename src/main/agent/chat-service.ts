import { MessageText, MessageTextOrEmpty, describeZodError, type CallOutput, type WaypointEvent } from '../../shared/contract';
import type { Attachment } from '../../shared/attachments';
import type { UserEdit } from '../../shared/plan-edit';
import { approvalMessage, feedbackMessage, type ReviewDecision } from '../../shared/plan-review';
import type { ApprovalDecision, EscalationAnswer } from '../../shared/prompts';
import type { NoticeItem, SessionSummary, TranscriptItem } from '../../shared/transcript';
import { DisposableStore, Emitter, type Disposable } from '../common/emitter';
import { PromptGate } from '../common/prompt-gate';
import { UserFacingError } from '../common/errors';
import { nowIso, userItem } from '../common/transcript-items';
import type { PlanServiceApi, PlanUpdate } from '../plan/plan-service.types';
import type { RecoveryService } from '../recovery/recovery-service';
import { appendUser } from '../sessions/api-history';
import { attachmentBlock } from '../attachments/attachment-blocks';
import { nextUserMark } from '../sessions/history-cut';
import { ChatRegistry } from '../sessions/chat-registry';
import { lastPage, pageBefore, type PageRequest } from '../sessions/transcript-pages';
import { titleFrom, type ChatSession } from '../sessions/chat-session';
import type { ToolRegistry } from '../tools/tool-registry';
import { resolveRetryPolicy, type ApiRetryPolicy } from './api-retry-policy';
import type { ApprovalGate } from './approval-step';
import type { QuestionGate } from './question-step';
import { Reruns } from './rerun';
import { ModelFacts } from './model-facts';
import { builtInLimits, builtInThinking } from './model-catalog';
import { canCompact } from './context/context-fit';
import { runCompaction } from './context/compact-run';
import type { ApiKeySource, RequestAttachments, SettingsSource } from './ports';
import { PromptAnswers } from './prompt-answers';
import { RunController } from './run-controller';
import type { UsageRecord } from './usage-meter';
import { withRequiredModels } from '../../shared/model-names';
import { DEFAULT_MODEL } from '../../shared/settings';
import { isEmptyChat } from './empty-chat';
import { PlanCards } from './plan-cards';

export { NO_KEY_MESSAGE } from './run-controller';

export interface NewSessionOptions {
  reuseEmpty?: boolean;
  /** Which empty chats may be reused (one another process writes may not). */
  reusable?: (sessionId: string) => boolean;
  title?: string;
  origin?: SessionSummary['origin'];
  /** The chat's folder, when not the app's (a headless run's --workspace). */
  workspace?: string | null;
}

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
  /** Attached files and tools' images (attachments/attachment-service.ts). */
  attachments?: RequestAttachments;
  /** No person answers approvals in this process (waypoint run answers them itself): a protected change it refuses tells Claude why. */
  headless?: boolean;
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
 * The chats and the conversation loop that runs each of them against Claude, as the app's calls
 * and the session log see them. The work is done by three parts with one job each: the chats of
 * record (ChatRegistry), the runs (RunController) and the answers to the questions runs pause on
 * (PromptAnswers).
 */
export class ChatService implements Disposable {
  private readonly chats = new ChatRegistry();
  private readonly runs: RunController;
  private readonly prompts: PromptAnswers;
  private readonly reruns: Reruns;
  private readonly forks = new Emitter<string>();
  /** Completion cards of finished plans (issue 12, item 7). */
  private readonly cards = new PlanCards();
  private readonly disposables = new DisposableStore();
  private readonly usage = new Emitter<UsageRecord>();
  /** Display names, context windows, output caps and thinking, from the Models API (shared by Settings and the runs). */
  private readonly models: ModelFacts;
  /** Every event of every chat, after the chat's state applied it. */
  readonly onEvent = this.chats.onEvent;
  /** Each request's priced usage (the session log records it). */
  readonly onUsage = this.usage.event;
  /** A chat was copied ("… (earlier version)"): the id of the copy, before any event of it. */
  readonly onForked = this.forks.event;

  constructor(private readonly options: ChatServiceOptions) {
    const toolsFor = (session: ChatSession) => options.toolsForWorkspace?.(session.summary.workspace ?? null) ?? options.tools;
    const approvals: ApprovalGate = new PromptGate();
    const questions: QuestionGate = new PromptGate();
    const { settings, plans, recovery } = options;
    this.models = new ModelFacts({ baseURL: options.baseURL });
    this.runs = new RunController({
      headless: options.headless ?? false,
      models: this.models,
      chats: this.chats,
      settings,
      apiKey: options.apiKey,
      plans,
      approvals,
      questions,
      recovery,
      toolsFor,
      baseURL: options.baseURL,
      sdkMaxRetries: options.sdkMaxRetries ?? 2,
      stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
      retryPolicy: resolveRetryPolicy(options.apiRetry),
      cards: this.cards,
      onUsage: (record) => this.usage.fire(record),
      attachments: options.attachments,
    });
    this.prompts = new PromptAnswers({ chats: this.chats, approvals, questions, runs: this.runs, settings, plans, recovery, toolsFor });
    this.reruns = new Reruns({
      chats: this.chats,
      runs: this.runs,
      plans,
      recovery,
      refuseWhileAsked,
      forked: (copyId) => this.forks.fire(copyId),
    });
    // One event per plan change; the chat's state derives the transcript line and progress from it.
    this.disposables.add(
      plans.onPlanUpdated(({ sessionId, plan, change }: PlanUpdate) => {
        const session = this.chats.get(sessionId);
        if (!session) return;
        const publishItem = (item: TranscriptItem) => this.chats.publish(session, { type: 'transcript_item', sessionId, item });
        // The cards are always in memory: a plan change never reads the chat's log.
        this.cards.replaced(session.itemsOfKind('plan_completion'), { sessionId, plan, change }).forEach(publishItem);
        this.chats.publish(session, { type: 'plan_updated', sessionId, plan, change });
        this.cards.itemsFor(session.itemsOfKind('plan_completion'), plan, this.runs.isRunning(sessionId)).forEach(publishItem);
      }),
    );
  }

  listSessions(): SessionSummary[] {
    return this.chats.list();
  }

  /** A chat as it opens: everything but the transcript's older pages (getTranscriptPage brings those). */
  getSession(sessionId: string): CallOutput<'getSession'> {
    const session = this.chats.require(sessionId);
    const { items, olderItems } = lastPage(session);
    return {
      session: session.summary,
      transcript: items,
      olderItems,
      runState: session.runState,
      plan: this.options.plans.getPlan(sessionId),
      pendingApproval: session.pendingApproval,
      pendingEscalation: session.pendingEscalation,
      pendingQuestion: session.pendingQuestion,
    };
  }

  /** The page of a chat's transcript before an item the renderer holds (sessions/transcript-pages.ts). */
  getTranscriptPage(sessionId: string, request: PageRequest): CallOutput<'getTranscriptPage'> {
    return pageBefore(this.chats.require(sessionId), request);
  }

  /** A chat's whole transcript, for what reads all of it (export, find in chat). */
  wholeTranscript(sessionId: string): TranscriptItem[] {
    return this.chats.require(sessionId).transcript;
  }

  /**
   * A new chat; with reuseEmpty ("New chat" from the UI) the newest empty chat this process may
   * write (`reusable`) comes back to the top instead. A headless run or an MCP client names it.
   */
  newSession(options: NewSessionOptions = {}): SessionSummary {
    const empty = options.reuseEmpty ? this.newestEmptyChat(options.reusable) : undefined;
    if (!empty) return this.chats.create(options.workspace === undefined ? this.options.workspace : options.workspace, options);
    this.chats.touch(empty);
    return empty.summary;
  }

  /**
   * Accepts the message and returns at once; the run continues in the background. Attachments
   * (already checked and stored) go before the text; with them the text may be empty.
   */
  sendMessage(sessionId: string, text: string, attachments: readonly Attachment[] = []): { itemId: string } {
    const parsed = (attachments.length ? MessageTextOrEmpty : MessageText).safeParse(text);
    if (!parsed.success) throw new UserFacingError('invalid_input', describeZodError(parsed.error));
    const session = this.chats.require(sessionId);
    const apiKey = this.runs.readyToRun(session);
    refuseWhileAsked(session);
    return this.post(session, apiKey, text, attachments);
  }

  /**
   * The user's edit of the plan in the panel (design.md §2), allowed while Claude works: applied
   * at once, or refused with the reason and nothing changed. Claude hears of it in its next request.
   */
  editPlan(sessionId: string, request: { planId: string; version: number; edit: UserEdit }): { version: number } {
    const session = this.chats.require(sessionId);
    if (session.summary.damaged) throw new UserFacingError('invalid_input', "This chat's log is damaged, so the chat is read-only: its plan can't be edited.");
    const result = this.options.plans.editPlan(sessionId, request);
    if (!result.ok) throw new UserFacingError('invalid_input', result.error);
    return { version: result.plan.version };
  }

  /**
   * Plan first: "Approve plan" or "Send feedback" on the proposal the user saw at `version`. The
   * answer is a plan change, then a user message that says so, and Claude's next run starts.
   */
  reviewPlan(sessionId: string, request: { planId: string; version: number; decision: ReviewDecision }): { itemId: string } {
    const session = this.chats.require(sessionId);
    // Busy or without a key: refused before anything changes.
    const apiKey = this.runs.readyToRun(session);
    refuseWhileAsked(session);
    const { planId, version, decision } = request;
    const result = this.options.plans.reviewPlan(sessionId, planId, version, decision);
    if (!result.ok) throw new UserFacingError('invalid_input', result.error);
    const text = decision.kind === 'approve' ? approvalMessage(version) : feedbackMessage(version, decision.feedback);
    return this.post(session, apiKey, text);
  }

  /**
   * "Retry now" after the loop gave up on API faults: runs the conversation again from the
   * history as it is. The user's unanswered message is still its last entry (failed attempts
   * never reach the history), so nothing is typed twice. `started` is false when there is
   * nothing to retry: no message yet, or Claude already answered the last one.
   */
  retryRun(sessionId: string): { started: boolean } {
    const session = this.chats.require(sessionId);
    const apiKey = this.runs.readyToRun(session);
    refuseWhileAsked(session);
    if (session.history.at(-1)?.role !== 'user') return { started: false };
    this.runs.start(session, apiKey);
    return { started: true };
  }

  /** Stops the run; with none, closes a question restored after a restart (it waits as a run would). */
  /**
   * "Compact now": Claude summarises the older turns in a run of its own. Refused while Claude
   * works, and when there is nothing before the latest turn to summarise.
   */
  compactSession(sessionId: string): { started: boolean } {
    const session = this.chats.require(sessionId);
    const apiKey = this.runs.readyToRun(session);
    if (!canCompact(session.history, session.compaction)) {
      throw new UserFacingError('invalid_input', 'Nothing to compact yet: only the latest turn is sent in full, and it always is.');
    }
    this.runs.start(session, apiKey, runCompaction);
    return { started: true };
  }

  stop(sessionId: string): { stopped: boolean } {
    const session = this.chats.require(sessionId);
    return { stopped: this.runs.stop(sessionId) || this.prompts.cancelRestored(session) };
  }

  /** "Save and rerun" (rerun.ts): the chat goes on from the edited message; what it replaced becomes an earlier version. */
  editMessage(sessionId: string, itemId: string, text: string, restoreFiles = false): Promise<CallOutput<'editMessage'>> {
    const parsed = MessageText.safeParse(text);
    if (!parsed.success) throw new UserFacingError('invalid_input', describeZodError(parsed.error));
    return this.reruns.edit(sessionId, itemId, text, restoreFiles);
  }

  /** "Retry reply": asks again with the last user message; the new reply replaces the old one. */
  retryReply(sessionId: string): Promise<CallOutput<'retryReply'>> {
    return this.reruns.retry(sessionId);
  }

  /** The files the turns from this message on changed (what "Save and rerun" may put back first). */
  previewRerun(sessionId: string, itemId: string): Promise<CallOutput<'previewRerun'>> {
    return this.reruns.preview(sessionId, itemId).then((files) => ({ files }));
  }

  /** Points the chat at another folder; its next run's tools work there. Refused mid-run. */
  setWorkspace(sessionId: string, workspace: string): SessionSummary {
    const session = this.chats.require(sessionId);
    if (this.runs.isRunning(sessionId)) {
      throw new UserFacingError('busy', 'Claude is working in this chat. Press Stop (or wait) before changing its workspace folder.');
    }
    this.chats.publish(session, { type: 'session_updated', session: { ...session.summary, workspace, updatedAt: nowIso() } });
    return session.summary;
  }

  /** The user's answer to a pending approval; a stale or unknown request changes nothing. */
  answerApproval(sessionId: string, requestId: string, decision: ApprovalDecision): { accepted: boolean } {
    return this.prompts.answerApproval(sessionId, requestId, decision);
  }

  /**
   * The user's answer to an escalation. A live run waiting on it resumes; after a restart (the
   * request restored with the session) the answer is applied and a new run continues the plan.
   */
  answerEscalation(sessionId: string, requestId: string, answer: EscalationAnswer): { accepted: boolean } {
    return this.prompts.answerEscalation(sessionId, requestId, answer);
  }

  /** Claude's question (ask_user): the answer goes back as the tool result, verbatim. */
  answerQuestion(sessionId: string, requestId: string, answer: string): { accepted: boolean } {
    return this.prompts.answerQuestion(sessionId, requestId, answer);
  }

  /** A chat's live state, or not_found: for whole-chat reads (export, find in chat) that page through its log. */
  requireSession(sessionId: string): ChatSession {
    return this.chats.require(sessionId);
  }

  /** For persistence (src/main/sessions): a chat's live state, and putting back one replayed from its log. */
  sessionState(sessionId: string): ChatSession | undefined {
    return this.chats.get(sessionId);
  }

  adoptSession(session: ChatSession): void {
    this.chats.adopt(session);
  }

  /** For persistence: a chat listed from the chat index; `read` brings it from its log when it is first used. */
  listUnreadSession(summary: SessionSummary, read: () => void): void {
    this.chats.listUnread(summary, read);
  }

  /** For persistence: a chat's state when it is in memory (a chat only listed is not read for it). */
  sessionInMemory(sessionId: string): ChatSession | undefined {
    return this.chats.peek(sessionId);
  }

  /** For persistence: an event another process logged for this chat, applied and announced as if fired here. */
  mirror(sessionId: string, event: WaypointEvent): void {
    const session = this.chats.get(sessionId);
    if (session) this.chats.publish(session, event);
  }

  /** A line in the chat's transcript from outside the loop (the MCP server saying who plans here). */
  addNotice(sessionId: string, item: NoticeItem): void {
    const session = this.chats.require(sessionId);
    this.chats.publish(session, { type: 'transcript_item', sessionId, item });
  }

  renameSession(sessionId: string, title: string): SessionSummary {
    const session = this.chats.require(sessionId);
    this.chats.publish(session, { type: 'session_updated', session: { ...session.summary, title } });
    return session.summary;
  }

  /** Pinned or not; the summary loses the field when unpinned, as chats never pinned have none. */
  pinSession(sessionId: string, pinned: boolean): SessionSummary {
    const session = this.chats.require(sessionId);
    const { pinned: _was, ...rest } = session.summary;
    this.chats.publish(session, { type: 'session_updated', session: pinned ? { ...rest, pinned: true } : rest });
    return session.summary;
  }

  /** Forgets the chat (its run stops, its later events are dropped) and tells subscribers. */
  removeSession(sessionId: string): boolean {
    if (!this.chats.remove(sessionId)) return false;
    this.runs.stop(sessionId);
    this.options.plans.drop(sessionId);
    this.cards.forget(sessionId);
    return true;
  }

  /** The Models API's list, plus the saved and the default model whenever it lacks them. */
  async listModels(): Promise<CallOutput<'listModels'>> {
    const listed = await this.models.list(this.options.apiKey.getKey());
    const models = withRequiredModels(listed.models, [this.options.settings.get().model, DEFAULT_MODEL]);
    // What the API did not describe shows the built-in table's window, cap and thinking.
    return { ...listed, models: models.map((m) => ({ ...builtInLimits(m.id), thinking: builtInThinking(m.id), ...m })) };
  }

  /** Silences the chats first: what stopping the runs and questions fires is not news to anyone. */
  dispose(): void {
    this.chats.dispose();
    this.prompts.dispose();
    this.runs.dispose();
    this.disposables.dispose();
    this.usage.dispose();
    this.forks.dispose();
  }

  /** A user message (attachments before the text) into the chat, and the run that answers it. */
  private post(session: ChatSession, apiKey: string, text: string, attachments: readonly Attachment[] = []): { itemId: string } {
    const sessionId = session.summary.id;
    // Where the message starts in the history: Edit message and Retry reply cut there.
    const item = { ...userItem(text), historyAt: nextUserMark(session.history), ...(attachments.length ? { attachments: [...attachments] } : {}) };
    const isFirst = session.countOf('user') === 0;
    appendUser(session.history, [...attachments.map(attachmentBlock), ...(text.trim() ? [{ type: 'text' as const, text }] : [])]);
    this.chats.publish(session, { type: 'transcript_item', sessionId, item });
    this.chats.touch(session, isFirst ? titleFrom(text.trim() ? text : attachments.map((a) => a.name).join(', ')) : undefined);
    this.runs.start(session, apiKey);
    return { itemId: item.id };
  }

  private newestEmptyChat(reusable: (sessionId: string) => boolean = () => true): ChatSession | undefined {
    for (const summary of this.chats.list()) {
      // Only chats in memory: an empty chat is never left unread (store/chat-index.ts), and reading every log to find one would undo the index.
      const session = this.chats.peek(summary.id);
      if (session && reusable(summary.id) && isEmptyChat(session, !!this.options.plans.getPlan(summary.id), this.runs.isRunning(summary.id))) return session;
    }
    return undefined;
  }
}

import { budgetPromptOf } from '../../shared/budget';
import type { CallOutput, WaypointEvent } from '../../shared/contract';
import { isAwaitingApproval, type Plan } from '../../shared/plan';
import type { PlanUpdate } from '../../shared/plan-change';
import type { UserEdit } from '../../shared/plan-edit';
import type { ChatWorktree } from '../../shared/worktree';
import type { NoticeItem, SessionSummary, TranscriptItem } from '../../shared/transcript';
import { DisposableStore, type Disposable } from '../common/emitter';
import { UserFacingError } from '../common/errors';
import { nowIso } from '../common/transcript-items';
import { ChatRegistry } from './chat-registry';
import type { ChatSession } from './chat-session';
import type { ChatItems } from './chat-items';
import { isEmptyChat } from './empty-chat';
import { PlanCards } from './plan-cards';
import { lastPage, pageBefore, type PageRequest } from './transcript-pages';

/** What the chats need of the plan service, declared here where it is used (PlanService satisfies it). */
interface ChatPlans {
  onPlanUpdated(listener: (update: PlanUpdate) => void): Disposable;
  getPlan(sessionId: string): Plan | null;
  drop(sessionId: string): void;
  editPlan(sessionId: string, request: { planId: string; version: number; edit: UserEdit }): { ok: true; plan: Plan } | { ok: false; error: string };
}

export interface ChatsOptions {
  plans: ChatPlans;
  /** The folder a new chat works in unless it names its own. */
  workspace: string | null;
  /**
   * Whether a run is in the chat now (the loop's RunController; never, where no loop runs:
   * `waypoint mcp`). A running chat is not "empty", and its plan's card waits for the run's end.
   */
  isRunning(sessionId: string): boolean;
  /** A new chat's transcript items: the store keeps older ones in the chat's log (store/paging). */
  newItems(): ChatItems;
}

export interface NewChatOptions {
  reuseEmpty?: boolean;
  /** Which empty chats may be reused (one another process writes may not). */
  reusable?: (sessionId: string) => boolean;
  title?: string;
  origin?: SessionSummary['origin'];
  /** The chat's folder, when not the app's (a headless run's --workspace). */
  workspace?: string | null;
}

/**
 * The chats of record as the app's calls and the session log see them, without the conversation
 * loop: listing, opening and paging, naming and pinning, the user's plan edits, notices from
 * outside the loop, and each plan change turned into the chat's events (with its completion
 * card). The loop (agent/loop/chat-service.ts) runs on top of it; `waypoint mcp` uses it alone.
 */
export class Chats implements Disposable {
  /** Every chat's state and its one event stream; the loop publishes its events through it. */
  readonly registry: ChatRegistry;
  /** Completion cards of finished plans (plan-cards.ts); a run's end settles the ones it held back. */
  readonly cards = new PlanCards();
  /** Every event of every chat, after the chat's state applied it. */
  readonly onEvent: ChatRegistry['onEvent'];
  /** Every change to a chat's API history, as it is made: the log writes it (store/chat-logs.ts). */
  readonly onHistoryChange: ChatRegistry['onHistoryChange'];
  /** Every version a chat keeps beside the one it shows: the log writes it (store/chat-logs.ts). */
  readonly onVersionKept: ChatRegistry['onVersionKept'];
  private readonly disposables = new DisposableStore();

  constructor(private readonly options: ChatsOptions) {
    this.registry = new ChatRegistry(() => options.newItems());
    this.onEvent = this.registry.onEvent;
    this.onHistoryChange = this.registry.onHistoryChange.bind(this.registry);
    this.onVersionKept = this.registry.onVersionKept.bind(this.registry);
    const { plans } = options;
    // One event per plan change; the chat's state derives the transcript line and progress from it.
    this.disposables.add(
      plans.onPlanUpdated(({ sessionId, plan, change }: PlanUpdate) => {
        const session = this.registry.get(sessionId);
        if (!session) return;
        const publishItem = (item: TranscriptItem) => this.registry.publish(session, { type: 'transcript_item', sessionId, item });
        // The cards are always in memory: a plan change never reads the chat's log.
        this.cards.replaced(session.itemsOfKind('plan_completion'), { sessionId, plan, change }).forEach(publishItem);
        this.registry.publish(session, { type: 'plan_updated', sessionId, plan, change });
        this.cards.itemsFor(session.itemsOfKind('plan_completion'), plan, options.isRunning(sessionId), change).forEach(publishItem);
      }),
    );
  }

  listSessions(): SessionSummary[] {
    return this.registry.list();
  }

  /** A chat as it opens: everything but the transcript's older pages (getTranscriptPage brings those). */
  getSession(sessionId: string): CallOutput<'getSession'> {
    const session = this.registry.require(sessionId);
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
      subagents: [...session.subagents.values()],
    };
  }

  /** What the chat waits on a person for, without its transcript (the "Needs you" dialog's answers). */
  pendingPrompts(sessionId: string): CallOutput<'getPendingPrompts'> {
    const session = this.registry.require(sessionId);
    const plan = this.options.plans.getPlan(sessionId);
    return {
      pendingApproval: session.pendingApproval,
      pendingEscalation: session.pendingEscalation,
      pendingQuestion: session.pendingQuestion,
      proposedPlan: isAwaitingApproval(plan) ? plan : null,
      ...(plan && budgetPromptOf(sessionId, plan) ? { budgetStop: plan } : {}),
    };
  }

  /** The page of a chat's transcript before an item the renderer holds (transcript-pages.ts). */
  getTranscriptPage(sessionId: string, request: PageRequest): CallOutput<'getTranscriptPage'> {
    return pageBefore(this.registry.require(sessionId), request);
  }

  /** A chat's whole transcript, for what reads all of it (export, find in chat). */
  wholeTranscript(sessionId: string): TranscriptItem[] {
    return this.registry.require(sessionId).transcript;
  }

  /**
   * A new chat; with reuseEmpty ("New chat" from the UI) the newest empty chat this process may
   * write (`reusable`) comes back to the top instead. A headless run or an MCP client names it.
   */
  newSession(options: NewChatOptions = {}): SessionSummary {
    const empty = options.reuseEmpty ? this.newestEmptyChat(options.reusable) : undefined;
    if (!empty) return this.registry.create(options.workspace === undefined ? this.options.workspace : options.workspace, options);
    this.registry.touch(empty);
    return empty.summary;
  }

  /** A chat's live state, or not_found: for whole-chat reads (export, find in chat) that page through its log. */
  requireSession(sessionId: string): ChatSession {
    return this.registry.require(sessionId);
  }

  /** For persistence (src/main/store): a chat's live state, and putting back one replayed from its log. */
  sessionState(sessionId: string): ChatSession | undefined {
    return this.registry.get(sessionId);
  }

  adoptSession(session: ChatSession): void {
    this.registry.adopt(session);
  }

  /** For persistence: a chat listed from the chat index; `read` brings it from its log when it is first used. */
  listUnreadSession(summary: SessionSummary, read: () => void): void {
    this.registry.listUnread(summary, read);
  }

  /** For persistence: a chat's state when it is in memory (a chat only listed is not read for it). */
  sessionInMemory(sessionId: string): ChatSession | undefined {
    return this.registry.peek(sessionId);
  }

  /** For persistence: an event another process logged for this chat, applied and announced as if fired here. */
  mirror(sessionId: string, event: WaypointEvent): void {
    const session = this.registry.get(sessionId);
    if (session) this.registry.publish(session, event);
  }

  /** A line in the chat's transcript from outside the loop (the MCP server saying who plans here). */
  addNotice(sessionId: string, item: NoticeItem): void {
    const session = this.registry.require(sessionId);
    this.registry.publish(session, { type: 'transcript_item', sessionId, item });
  }

  renameSession(sessionId: string, title: string): SessionSummary {
    const session = this.registry.require(sessionId);
    this.registry.publish(session, { type: 'session_updated', session: { ...session.summary, title } });
    return session.summary;
  }

  /** Pinned or not; the summary loses the field when unpinned, as chats never pinned have none. */
  pinSession(sessionId: string, pinned: boolean): SessionSummary {
    const session = this.registry.require(sessionId);
    const { pinned: _was, ...rest } = session.summary;
    this.registry.publish(session, { type: 'session_updated', session: pinned ? { ...rest, pinned: true } : rest });
    return session.summary;
  }

  /** The chat's own model, or (null) back to the default in Settings; a run going on uses it from its next request. */
  setSessionModel(sessionId: string, model: string | null): SessionSummary {
    const session = this.registry.require(sessionId);
    const { model: _was, ...rest } = session.summary;
    this.registry.publish(session, { type: 'session_updated', session: model ? { ...rest, model } : rest });
    return session.summary;
  }

  /** Points the chat at another folder; its next run's tools work there. Refused mid-run. */
  setWorkspace(sessionId: string, workspace: string): SessionSummary {
    const session = this.registry.require(sessionId);
    if (this.options.isRunning(sessionId)) {
      throw new UserFacingError('busy', 'Claude is working in this chat. Press Stop (or wait) before changing its workspace folder.');
    }
    this.registry.publish(session, { type: 'session_updated', session: { ...session.summary, workspace, updatedAt: nowIso() } });
    return session.summary;
  }

  /**
   * The chat's own git worktree (made before its first message) or none (discarded): the
   * workspace moves with it, in one session_updated so the log keeps both together and a restart
   * finds the chat working where it was. Refused mid-run, as any change of folder is.
   */
  setWorktree(sessionId: string, worktree: ChatWorktree | null, workspace: string, options: { whileRunning?: boolean } = {}): SessionSummary {
    const session = this.registry.require(sessionId);
    // whileRunning: a worktree whose checkout failed under a running first message is gone
    // already; the run's waiting calls hear so, and the chat must not point at it meanwhile.
    if (this.options.isRunning(sessionId) && !options.whileRunning) {
      throw new UserFacingError('busy', "Claude is working in this chat. Press Stop (or wait) before changing its worktree.");
    }
    const { worktree: _was, ...rest } = session.summary;
    this.registry.publish(session, { type: 'session_updated', session: { ...rest, ...(worktree ? { worktree } : {}), workspace, updatedAt: nowIso() } });
    return session.summary;
  }

  /**
   * The user's edit of the plan in the panel (docs/architecture.md "The user's hand on the plan"),
   * allowed while Claude works: applied at once, or refused with the reason and nothing changed.
   * Claude hears of it in its next request.
   */
  editPlan(sessionId: string, request: { planId: string; version: number; edit: UserEdit }): { version: number } {
    const session = this.registry.require(sessionId);
    if (session.summary.damaged) throw new UserFacingError('invalid_input', "This chat's log is damaged, so the chat is read-only: its plan can't be edited.");
    const result = this.options.plans.editPlan(sessionId, request);
    if (!result.ok) throw new UserFacingError('invalid_input', result.error);
    return { version: result.plan.version };
  }

  /**
   * Forgets the chat and tells subscribers (`session_deleted`: the loop stops a run in it, its
   * later events are dropped).
   */
  removeSession(sessionId: string): boolean {
    if (!this.registry.remove(sessionId)) return false;
    this.options.plans.drop(sessionId);
    this.cards.forget(sessionId);
    return true;
  }

  /** Silences the chats first: what stopping the runs and questions fires is not news to anyone. */
  dispose(): void {
    this.registry.dispose();
    this.disposables.dispose();
  }

  private newestEmptyChat(reusable: (sessionId: string) => boolean = () => true): ChatSession | undefined {
    for (const summary of this.registry.list()) {
      // Only chats in memory: an empty chat is never left unread (store/chat-index.ts), and reading every log to find one would undo the index.
      const session = this.registry.peek(summary.id);
      if (session && reusable(summary.id) && isEmptyChat(session, !!this.options.plans.getPlan(summary.id), this.options.isRunning(summary.id))) return session;
    }
    return undefined;
  }
}

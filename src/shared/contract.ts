import { BudgetAnswer, BudgetUsd } from './budget';
import { z } from 'zod';
import { SubAgent, SubAgentLine, SubAgentWaiting } from './subagents';
import { ApprovalRule, ApprovalRuleFields } from './approval-rules';
import { AttachmentRef, ATTACHMENT_LIMITS, uploadCalls } from './attachments';
import { chatWriterCalls } from './chat-writer';
import { McpServerState } from './mcp';
import { Plan } from './plan';
import { PlanUpdateFields } from './plan-change';
import { UserEdit } from './plan-edit';
import { ReviewDecision } from './plan-review';
import { ApprovalDecision, ApprovalRequest, EscalationAnswer, EscalationRequest, QuestionAnswer, QuestionRequest } from './prompts';
import { ApiKeyState, SettingsPatch, SettingsView } from './settings';
import { InstructionsView, SkillsView } from './skills';
import { ModelThinking } from './thinking';
import { RunState, SessionSummary, TranscriptItem } from './transcript';
import { ChangedFile, ChatWorktree } from './worktree';

/**
 * The one typed contract between the renderer and main, used by both shells (Electron IPC and
 * the web shell's WebSocket), the preload and the renderer. Every payload that enters main is
 * parsed with these schemas first; the types are derived from them, never written twice.
 */

/** A message may be long (pasted logs) but not unbounded: 10 MB pastes get a clear refusal. */
export const MAX_MESSAGE_CHARS = 500_000;

const SessionId = z.string().min(1).max(100);
const ItemId = z.string().min(1).max(200);
/** A count or a position of transcript items. */
const ItemCount = z.number().int().nonnegative();

/** The most items one getTranscriptPage may ask for (Home loads the whole chat above in one). */
export const PAGE_LIMIT_MAX = 1_000_000;

/** Find in chat looks for a phrase, not a document. */
export const FIND_QUERY_MAX = 200;

/** A message's text within the limit; empty is allowed only with attachments (see sendMessage). */
export const MessageTextOrEmpty = z.string().max(MAX_MESSAGE_CHARS, {
  error: (issue) =>
    `Message is too long (${typeof issue.input === 'string' ? issue.input.length.toLocaleString('en-US') : '?'} characters; the limit is ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}). Attach less text or split it up.`,
});

export const EMPTY_MESSAGE = 'Message is empty: type something to send.';

export const MessageText = MessageTextOrEmpty.refine((s) => s.trim().length > 0, { error: EMPTY_MESSAGE });

const ModelInfo = z.object({
  id: z.string(),
  displayName: z.string(),
  /** What extended thinking the model takes (the Models API's capabilities, or Waypoint's table). */
  thinking: ModelThinking.optional(),
  /** The model's context window (max_input_tokens) and output cap (max_tokens), when known. */
  contextWindow: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
});

export const calls = {
  getAppInfo: {
    input: z.object({}).strict(),
    output: z.object({
      shell: z.enum(['electron', 'web']),
      version: z.string(),
      workspace: z.string().nullable(),
      /** settings.json was invalid and replaced by defaults at start; the damaged file is kept here. */
      settingsReset: z.object({ reason: z.string(), backupPath: z.string() }).nullable().optional(),
      /** The chats folder could not be used at start (e.g. it is a file): chats are not saved. */
      storageProblem: z.string().optional(),
    }),
  },
  listSessions: {
    input: z.object({}).strict(),
    output: z.object({ sessions: z.array(SessionSummary) }),
  },
  /**
   * Opening a chat: its plan, the questions it waits on and the last page of its transcript
   * (paged sessions, issue 15): `olderItems` counts the items before the first one sent (0: the
   * whole chat is here); getTranscriptPage brings them a page at a time.
   */
  getSession: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({
      session: SessionSummary,
      transcript: z.array(TranscriptItem),
      olderItems: ItemCount,
      runState: RunState,
      plan: Plan.nullable(),
      /** A question the run is paused on; it survives a reload and a restart. */
      pendingApproval: ApprovalRequest.nullable().optional(),
      pendingEscalation: EscalationRequest.nullable().optional(),
      pendingQuestion: QuestionRequest.nullable().optional(),
      /** The chat's sub-agents, in the order they started (shared/subagents.ts). */
      subagents: z.array(SubAgent).optional(),
    }),
  },
  /**
   * What a waiting chat asks, without opening it: the "Needs you" dialog answers every waiting
   * chat's prompt in place, while the store holds only the open chat's snapshot (and after a
   * reload only the list's "needs-you" stamp). The same pending requests as getSession, and the
   * plan while its proposal awaits approval (null otherwise), or while it awaits "Budget reached".
   */
  getPendingPrompts: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({
      pendingApproval: ApprovalRequest.nullable(),
      pendingEscalation: EscalationRequest.nullable(),
      pendingQuestion: QuestionRequest.nullable(),
      proposedPlan: Plan.nullable(),
      /** The plan while it awaits an answer to "Budget reached" (its stop is in the plan). */
      budgetStop: Plan.optional(),
    }),
  },
  /**
   * The page of the transcript just before `beforeItemId` (the first item the renderer holds):
   * up to `limit` items (a page sized by main when absent), reaching back at least to
   * `throughItemId` when given (find in chat revealing an older match). Refused ('not_found') when
   * either item is no longer in the chat (an edit cut it): the renderer then opens the chat again.
   */
  getTranscriptPage: {
    input: z
      .object({
        sessionId: SessionId,
        beforeItemId: ItemId,
        limit: z.number().int().positive().max(PAGE_LIMIT_MAX).optional(),
        throughItemId: ItemId.optional(),
      })
      .strict(),
    output: z.object({ items: z.array(TranscriptItem), olderItems: ItemCount }),
  },
  newSession: {
    input: z.object({}).strict(),
    output: SessionSummary,
  },
  sendMessage: {
    input: z
      .object({
        sessionId: SessionId,
        text: MessageTextOrEmpty,
        /** Uploaded files (finishUpload's ids, with the names to show), sent before the text. */
        attachments: z
          .array(AttachmentRef)
          .max(ATTACHMENT_LIMITS.maxAttachmentsPerMessage, { error: `At most ${ATTACHMENT_LIMITS.maxAttachmentsPerMessage} files can go with one message.` })
          .optional(),
      })
      .strict()
      .refine((input) => input.text.trim().length > 0 || (input.attachments?.length ?? 0) > 0, { error: EMPTY_MESSAGE }),
    output: z.object({ itemId: z.string() }),
  },
  stop: {
    input: z.object({ sessionId: SessionId }).strict(),
    /** `stopped` only when something was stopped; else `reason` says why not (nothing ran, its process did not answer). */
    output: z.object({ stopped: z.boolean(), reason: z.string().optional() }),
  },
  /** "Stop sub-agent": stops that sub-agent and its own sub-agents; the rest of the chat's run goes on. */
  stopSubAgent: {
    input: z.object({ sessionId: SessionId, agentId: z.string().min(1).max(100) }).strict(),
    output: z.object({ stopped: z.boolean(), reason: z.string().optional() }),
  },
  /** "Retry now" after the loop gave up on API faults: runs again from the kept history. */
  retryRun: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ started: z.boolean() }),
  },
  answerApproval: {
    input: z.object({ sessionId: SessionId, requestId: z.string().min(1).max(100), decision: ApprovalDecision }).strict(),
    output: z.object({ accepted: z.boolean() }),
  },
  answerEscalation: {
    input: z.object({ sessionId: SessionId, requestId: z.string().min(1).max(100), answer: EscalationAnswer }).strict(),
    output: z.object({ accepted: z.boolean() }),
  },
  /** The answer to Claude's ask_user question: an option's text or typed text, verbatim. */
  answerQuestion: {
    input: z.object({ sessionId: SessionId, requestId: z.string().min(1).max(100), answer: QuestionAnswer }).strict(),
    output: z.object({ accepted: z.boolean() }),
  },
  /**
   * "Save and rerun": the message and everything after it are replaced, in place, by a new
   * version (the edited message and a new run); the one it replaced stays a version of the chat
   * (showVersion). `restoreFiles` first puts back the files the replaced turns changed (previewRerun lists them).
   */
  editMessage: {
    input: z.object({ sessionId: SessionId, itemId: z.string().min(1).max(100), text: MessageText, restoreFiles: z.boolean().optional() }).strict(),
    output: z.object({ itemId: z.string() }),
  },
  /** "Retry reply": asks again with the last user message; the new reply is a new version of the reply. `restoreFiles` as for editMessage. */
  retryReply: {
    input: z.object({ sessionId: SessionId, restoreFiles: z.boolean().optional() }).strict(),
    output: z.object({ itemId: z.string() }),
  },
  /**
   * "Previous version" / "Next version": shows version `index` of the user message `itemId`
   * (`of: 'message'`, an edited message) or of its reply (`of: 'reply'`, a retried one), with its
   * replies and plan. Refused while Claude works or waits for an answer in the chat.
   */
  showVersion: {
    input: z.object({ sessionId: SessionId, itemId: z.string().min(1).max(100), of: z.enum(['message', 'reply']), index: z.number().int().nonnegative().max(10_000) }).strict(),
    output: z.object({ itemId: z.string() }),
  },
  /**
   * The files Claude's tools changed in the turns from this message on (in a plan or not), which
   * "Save and rerun" and "Retry reply" can put back first; `commands`: the run_command calls those
   * turns made, whose effects cannot be put back.
   */
  previewRerun: {
    input: z.object({ sessionId: SessionId, itemId: z.string().min(1).max(100) }).strict(),
    output: z.object({
      files: z.array(z.object({ path: z.string(), action: z.enum(['restore', 'delete']), changedOutside: z.boolean() })),
      commands: z.number().int().nonnegative(),
    }),
  },
  /** What "Undo plan" would do, for its confirmation. */
  previewUndoPlan: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({
      files: z.array(
        z.object({ path: z.string(), action: z.enum(['restore', 'delete']), changedOutside: z.boolean() }),
      ),
    }),
  },
  undoPlan: {
    input: z.object({ sessionId: SessionId, overwriteChangedOutside: z.boolean() }).strict(),
    output: z.object({ restored: z.array(z.string()), deleted: z.array(z.string()), skipped: z.array(z.string()) }),
  },
  renameSession: {
    input: z.object({ sessionId: SessionId, title: z.string().trim().min(1, { error: 'Title is empty.' }).max(200) }).strict(),
    output: SessionSummary,
  },
  /**
   * The chat the desktop window shows (null: none), so main's notifications leave it alone while
   * the window has focus (electron/attention-notifier.ts). Changes nothing of the chat.
   */
  setChatInView: {
    input: z.object({ sessionId: SessionId.nullable() }).strict(),
    output: z.object({}),
  },
  /** "Pin chat" / "Unpin chat": pinned chats are listed first; the date (and so the order among the rest) stays. */
  pinSession: {
    input: z.object({ sessionId: SessionId, pinned: z.boolean({ error: 'pinned must be true or false.' }) }).strict(),
    output: SessionSummary,
  },
  /** "Chat model": the model this chat's next requests use; null goes back to the default in Settings. */
  setSessionModel: {
    input: z
      .object({
        sessionId: SessionId,
        model: z.string({ error: 'model must be a model id, or null for the default.' }).trim().min(1, { error: 'The model is empty: choose one from the list.' }).max(200).nullable(),
      })
      .strict(),
    output: SessionSummary,
  },
  deleteSession: {
    /** keepBranch: a worktree chat's branch stays (its uncommitted work committed on it) when its worktree goes. */
    input: z.object({ sessionId: SessionId, keepBranch: z.boolean().optional() }).strict(),
    output: z.object({ deleted: z.boolean() }),
  },
  /** "Changes": every file the chat changed, against where its worktree started (docs/architecture.md "Worktrees and Changes"). */
  getChanges: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ files: z.array(ChangedFile), worktree: ChatWorktree.nullable(), note: z.string().optional() }),
  },
  getFileDiff: {
    input: z.object({ sessionId: SessionId, path: z.string().min(1).max(4096) }).strict(),
    output: z.object({ diff: z.string() }),
  },
  revertFile: {
    input: z.object({ sessionId: SessionId, path: z.string().min(1).max(4096) }).strict(),
    output: z.object({ files: z.array(ChangedFile) }),
  },
  /** "Merge into BRANCH": all or nothing; a conflict or a dirty checkout is refused with the files named. */
  mergeWorktree: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ commit: z.string() }),
  },
  /** "Discard worktree": the worktree and its branch go; the chat goes on in the repository folder. */
  discardWorktree: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ session: SessionSummary }),
  },
  /** Settings: how many chat worktrees exist and their size; "Clean up worktrees" removes those of chats that are gone. */
  getWorktreeUsage: {
    input: z.object({}).strict(),
    output: z.object({ count: z.number().int().nonnegative(), bytes: z.number().nonnegative() }),
  },
  cleanUpWorktrees: {
    input: z.object({}).strict(),
    output: z.object({ removed: z.number().int().nonnegative(), count: z.number().int().nonnegative(), bytes: z.number().nonnegative() }),
  },
  searchSessions: {
    input: z.object({ query: z.string().trim().min(1).max(500) }).strict(),
    output: z.object({ results: z.array(z.object({ session: SessionSummary, snippet: z.string() })) }),
  },
  /**
   * Find in chat: every case-insensitive plain-text match in the whole chat (the renderer shows
   * only part of a long chat), in transcript order. `occurrence` counts the matches within one
   * item, as the renderer counts them in its row to highlight one.
   */
  findInChat: {
    input: z
      .object({
        sessionId: SessionId,
        query: z
          .string()
          .max(FIND_QUERY_MAX, { error: `The text to find is too long (the limit is ${FIND_QUERY_MAX} characters).` })
          .refine((q) => q.trim().length > 0, { error: 'Type something to find.' }),
      })
      .strict(),
    output: z.object({
      matches: z.array(
        z.object({ itemId: z.string(), snippet: z.string(), index: z.number().int().nonnegative(), occurrence: z.number().int().nonnegative() }),
      ),
      total: z.number().int().nonnegative(),
      truncated: z.boolean(),
    }),
  },
  getMcpStates: {
    input: z.object({}).strict(),
    output: z.object({ servers: z.array(McpServerState) }),
  },
  restartMcpServer: {
    input: z.object({ name: z.string().min(1).max(200) }).strict(),
    output: z.object({ restarted: z.boolean() }),
  },
  /**
   * Settings' "Sign in" on a remote MCP server: main starts the OAuth sign-in (the desktop app
   * opens the system browser; the state's `signInUrl` is the web shell's "Open sign-in page").
   * `started` is false when there is no remote server by that name. No token ever comes back.
   */
  signInMcpServer: {
    input: z.object({ name: z.string().min(1).max(200) }).strict(),
    output: z.object({ started: z.boolean() }),
  },
  /** The chat header's "Instructions": the files (and Settings text) in the chat's system prompt, read now. */
  getInstructions: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: InstructionsView,
  },
  /** Settings "Skills": the skills of the chat's workspace (none without a chat) and of the data folder. */
  listSkills: {
    input: z.object({ sessionId: SessionId.optional() }).strict(),
    output: SkillsView,
  },
  /**
   * The chat's workspace folder: `folder` as the user typed it (the web shell's "Workspace
   * folder"), or, without it, Electron's folder dialog. Checked in main (exists, a folder, not
   * Waypoint's data); refused while Claude works in the chat.
   */
  chooseWorkspace: {
    input: z
      .object({
        sessionId: SessionId,
        folder: z.string().max(4096, { error: 'The folder path is too long (the limit is 4,096 characters).' }).optional(),
      })
      .strict(),
    output: z.object({ workspace: z.string().nullable() }),
  },
  exportPlan: {
    input: z.object({ sessionId: SessionId }).strict(),
    /** The Markdown, and where it was saved (Electron save dialog) or null (web: downloaded by the page). */
    output: z.object({ markdown: z.string(), fileName: z.string(), savedTo: z.string().nullable() }),
  },
  /** The whole chat as Markdown, its attachments included (images inline, text files verbatim). */
  exportChat: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ markdown: z.string(), fileName: z.string(), savedTo: z.string().nullable() }),
  },
  ...uploadCalls,
  ...chatWriterCalls,
  getSettings: {
    input: z.object({}).strict(),
    output: SettingsView,
  },
  setSettings: {
    input: z.object({ patch: SettingsPatch }).strict(),
    output: SettingsView,
  },
  /** Saves an approval rule for every chat: "Always approve" at once, Settings → Approval rules on the dialog's Save. */
  addApprovalRule: {
    input: z.object({ rule: ApprovalRuleFields }).strict(),
    output: z.object({ rule: ApprovalRule }),
  },
  /** "Remove rule": takes effect at once. */
  removeApprovalRule: {
    input: z.object({ id: z.string().min(1).max(100) }).strict(),
    output: z.object({ removed: z.boolean() }),
  },
  setApiKey: {
    /** null clears a key typed in Settings (an environment key stays). */
    input: z
      .object({
        apiKey: z
          .string()
          .trim()
          .min(1, { error: 'API key is empty.' })
          .max(500, { error: 'API key is too long.' })
          .regex(/^[\x21-\x7e]+$/, { error: 'API key has spaces or unusual characters: paste it again.' })
          .nullable(),
      })
      .strict(),
    output: ApiKeyState,
  },
  listModels: {
    input: z.object({}).strict(),
    output: z.object({ models: z.array(ModelInfo), source: z.enum(['api', 'fallback']) }),
  },
  getPlan: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ plan: Plan.nullable() }),
  },
  /** The user's edit of the plan, made on `version` (re-applied to a newer plan when it still makes sense). */
  editPlan: {
    input: z.object({ sessionId: SessionId, planId: z.string().min(1).max(200), version: z.number().int().nonnegative(), edit: UserEdit }).strict(),
    output: z.object({ version: z.number().int().nonnegative() }),
  },
  /** Plan first: "Approve plan" or "Send feedback" on the proposal the user saw at `version`. */
  reviewPlan: {
    input: z.object({ sessionId: SessionId, planId: z.string().min(1).max(200), version: z.number().int().nonnegative(), decision: ReviewDecision }).strict(),
    output: z.object({ itemId: z.string() }),
  },
  /** "Save budget" in the panel: this plan's budget in dollars (a figure below the spend stops the next request). */
  setPlanBudget: {
    input: z.object({ sessionId: SessionId, planId: z.string().min(1).max(200), usd: BudgetUsd }).strict(),
    output: z.object({ version: z.number().int().nonnegative() }),
  },
  /** "Extend budget" (the budget once more, or `usd`) or "End plan" on "Budget reached". */
  answerBudget: {
    input: z.object({ sessionId: SessionId, requestId: z.string().min(1).max(100), answer: BudgetAnswer }).strict(),
    output: z.object({ accepted: z.boolean() }),
  },
  /** "Compact now": Claude summarises the older turns; refused while Claude works. */
  compactSession: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ started: z.boolean() }),
  },
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallInput<N extends CallName> = z.input<Calls[N]['input']>;
export type CallOutput<N extends CallName> = z.infer<Calls[N]['output']>;
export const CALL_NAMES = Object.keys(calls) as CallName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(calls, name);
}

export const WaypointEvent = z.discriminatedUnion('type', [
  /**
   * A new item or a changed one. `index` is its position in the chat's transcript (main stamps
   * it as it publishes): a renderer holding only the end of a long chat appends an item past its
   * end and ignores a change to one above what it has loaded (that page brings it fresh).
   */
  z.object({ type: z.literal('transcript_item'), sessionId: SessionId, item: TranscriptItem, index: ItemCount.optional() }),
  /** Streamed text of a reply or thinking block; `offset` (stamped by main) is where it starts in the item's text. */
  z.object({ type: z.literal('message_delta'), sessionId: SessionId, itemId: z.string(), text: z.string(), offset: ItemCount.optional() }),
  z.object({
    type: z.literal('message_done'),
    sessionId: SessionId,
    itemId: z.string(),
    stopReason: z.string().nullable(),
  }),
  z.object({ type: z.literal('run_state'), sessionId: SessionId, state: RunState }),
  z.object({ type: z.literal('session_updated'), session: SessionSummary }),
  /** One per plan change; the transcript line and the sidebar's progress are derived from it (plan-change.ts). */
  z.object({ type: z.literal('plan_updated'), ...PlanUpdateFields }),
  /** A sub-agent of the chat started, changed its plan or ended: its whole snapshot (shared/subagents.ts). */
  z.object({ type: z.literal('subagent_updated'), sessionId: SessionId, subagent: SubAgent }),
  /** A line of a sub-agent's own transcript as it happens (a reply, a tool call's new state): its card shows it live, the log keeps it whole. */
  z.object({ type: z.literal('subagent_line'), sessionId: SessionId, agentId: z.string().min(1), line: SubAgentLine }),
  /** A sub-agent asked the user and waits: what its answer needs to run it on, after a restart too (its log record). */
  z.object({ type: z.literal('subagent_waiting'), sessionId: SessionId, waiting: SubAgentWaiting }),
  z.object({ type: z.literal('settings_updated'), view: SettingsView }),
  z.object({ type: z.literal('approval_requested'), sessionId: SessionId, request: ApprovalRequest }),
  z.object({
    type: z.literal('approval_resolved'),
    sessionId: SessionId,
    requestId: z.string(),
    decision: z.enum(['approved', 'denied', 'cancelled']),
  }),
  z.object({ type: z.literal('escalation_requested'), sessionId: SessionId, request: EscalationRequest }),
  z.object({
    type: z.literal('escalation_resolved'),
    sessionId: SessionId,
    requestId: z.string(),
    answer: z.enum(['skip', 'abort', 'guidance', 'cancelled']),
  }),
  z.object({ type: z.literal('question_requested'), sessionId: SessionId, request: QuestionRequest }),
  z.object({
    type: z.literal('question_resolved'),
    sessionId: SessionId,
    requestId: z.string(),
    outcome: z.enum(['answered', 'cancelled']),
  }),
  /**
   * An edited message, a retried reply or another version shown replaced the chat from this item
   * on: the item and every later one leave the shown version; a plan made there is dropped.
   */
  z.object({
    type: z.literal('chat_rewound'),
    sessionId: SessionId,
    fromItemId: z.string(),
    planDropped: z.boolean(),
    /** Where the cut item was (how many items the chat keeps), stamped by main: the cut may lie above what a renderer loaded. */
    index: ItemCount.optional(),
  }),
  z.object({ type: z.literal('session_deleted'), sessionId: SessionId }),
  /** Desktop only, from the shell to its window: a notification about this chat was clicked; the window opens it. */
  z.object({ type: z.literal('open_chat'), sessionId: SessionId }),
  z.object({ type: z.literal('mcp_state'), servers: z.array(McpServerState) }),
  z.object({
    type: z.literal('error'),
    sessionId: SessionId.optional(),
    code: z.string().optional(),
    message: z.string(),
  }),
]);
export type WaypointEvent = z.infer<typeof WaypointEvent>;
export type WaypointEventType = WaypointEvent['type'];
export type EventOf<T extends WaypointEventType> = Extract<WaypointEvent, { type: T }>;

/** Errors that cross the boundary: a code the UI can act on and a sentence a person can read. */
export const CallErrorCode = z.enum(['invalid_input', 'unknown_call', 'not_found', 'busy', 'internal']);
export type CallErrorCode = z.infer<typeof CallErrorCode>;
export const CallError = z.object({ code: CallErrorCode, message: z.string() });
export type CallError = z.infer<typeof CallError>;

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: CallError };

/** The object the renderer sees (window.waypoint in Electron, a WebSocket client on the web). */
export interface WaypointApi {
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  /** Returns an unsubscribe function. */
  onEvent(listener: (event: WaypointEvent) => void): () => void;
}

/** Thrown on the renderer side when a call fails; carries the contract's error code. */
export class WaypointCallError extends Error {
  constructor(
    readonly code: CallErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WaypointCallError';
  }
}

/**
 * Electron IPC channel names: the only two, kept here so no string is repeated elsewhere. The
 * event channel carries an array: the events main sent in one turn (docs/architecture.md).
 */
export const IPC_CALL_CHANNEL = 'waypoint:call';
export const IPC_EVENT_CHANNEL = 'waypoint:event';

/** Web shell wire format (WebSocket text frames, JSON). */
export const WsClientFrame = z
  .object({ id: z.number().int().nonnegative(), call: z.string().max(100), input: z.unknown() })
  .strict();
export type WsClientFrame = z.infer<typeof WsClientFrame>;

/** `events`: what main sent in one turn of its event loop, in order (one task in the page). */
export type WsServerFrame =
  | { kind: 'result'; id: number; result: CallResult<unknown> }
  | { kind: 'events'; events: WaypointEvent[] };

/** A CallError's wording of refused input: the one zod-error formatter (zod-error.ts). */
export { describeZodError } from './zod-error';

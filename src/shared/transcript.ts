import { z } from 'zod';
import { ChatWorktree } from './worktree';
import { ApprovalRule } from './approval-rules';
import { Attachment } from './attachments';
import { Dialect, ErrorClass, GoalCheck, PlanCompletion, PlanStatus, PlanUndone, StepStatus } from './plan';
import { Usage } from './usage';

/**
 * What the user sees in a chat, item by item. The API message history lives in main; the
 * transcript is its user-facing projection (plus notices the API never sees).
 */

const base = { id: z.string(), createdAt: z.string() };

/** Where a user message starts in main's API history (a message and a block in it), for Edit and Retry. */
export const HistoryMark = z.object({ message: z.number().int().nonnegative(), block: z.number().int().nonnegative() });
export type HistoryMark = z.infer<typeof HistoryMark>;

/**
 * Which version of how many is shown (Edit message, Retry reply: docs/contract.md §5). `group`
 * names the versions of one message (or of one message's reply); index counts from 0.
 */
export const VersionTag = z.object({ group: z.string().min(1).max(200), index: z.number().int().nonnegative(), count: z.number().int().positive() });
export type VersionTag = z.infer<typeof VersionTag>;

export const UserItem = z.object({
  ...base,
  kind: z.literal('user'),
  text: z.string(),
  /** Files sent with the message (stored once by content hash; shown by name and thumbnail). */
  attachments: z.array(Attachment).optional(),
  /** Absent in logs written before Edit message existed (found by its text then). */
  historyAt: HistoryMark.optional(),
  /** This message is one of several versions (edited): which one, of how many. */
  version: VersionTag.optional(),
  /** The reply to this message is one of several versions (retried): which one, of how many. */
  replies: VersionTag.optional(),
});

/** A web page a reply cites (its citations of web search results), or one a web search found. */
export const WebSource = z.object({ title: z.string(), url: z.string(), pageAge: z.string().optional() });
export type WebSource = z.infer<typeof WebSource>;

export const AssistantItem = z.object({
  ...base,
  kind: z.literal('assistant'),
  text: z.string(),
  status: z.enum(['streaming', 'done', 'stopped', 'error']),
  /** The web pages the reply cites (web search), each once, in the order first cited. */
  sources: z.array(WebSource).optional(),
});

export const ToolCallItem = z.object({
  ...base,
  kind: z.literal('tool_call'),
  toolUseId: z.string(),
  name: z.string(),
  /** MCP server name when the tool came from one. */
  server: z.string().optional(),
  summary: z.string(),
  input: z.unknown(),
  status: z.enum(['running', 'awaiting_approval', 'done', 'error', 'denied']),
  result: z.string().optional(),
  errorKind: ErrorClass.optional(),
  durationMs: z.number().nonnegative().optional(),
  /** Images the tool returned (an MCP screenshot): Claude gets them as images, the card shows them. */
  images: z.array(Attachment).optional(),
  /** The tool changes things (file tools, run_command, MCP tools not read-only or idempotent): cut off, its effect is unknown. */
  changes: z.boolean().optional(),
  /** Cut off by a crash, kill or Stop while it ran: the card says "Interrupted". */
  interrupted: z.boolean().optional(),
  /** A web search (the API's server tool, name "web_search"): the pages it found. */
  webResults: z.array(WebSource).optional(),
});

/**
 * One thinking block of a reply (extended thinking): streamed like a reply, shown collapsed.
 * `redacted`: the API sent it encrypted (redacted_thinking); it goes back to Claude unchanged.
 * `discarded`: it belonged to an attempt that failed and was retried, so it is not shown.
 */
export const ThinkingItem = z.object({
  ...base,
  kind: z.literal('thinking'),
  text: z.string(),
  status: z.enum(['streaming', 'done', 'stopped', 'error', 'discarded']),
  redacted: z.boolean().optional(),
});

export const PlanChangeItem = z.object({
  ...base,
  kind: z.literal('plan_change'),
  text: z.string(),
  version: z.number().int().nonnegative(),
});

/** A step as a completion card lists it: its number, title, how it ended and what it gave. */
export const CardStep = z.object({ number: z.string(), title: z.string(), status: StepStatus, result: z.string().optional() });
export type CardStep = z.infer<typeof CardStep>;

export const PlanCompletionItem = z.object({
  ...base,
  kind: z.literal('plan_completion'),
  goal: z.string(),
  completion: PlanCompletion,
  counts: z.object({ completed: z.number(), failed: z.number(), skipped: z.number(), total: z.number() }),
  /**
   * Every step as it ended, numbered as the panel numbered it, so the card still shows the plan
   * once the panel is gone (absent in logs written before cards listed them).
   */
  steps: z.array(CardStep).optional(),
  /** The plan this card closes (absent in logs written before cards named it). */
  planId: z.string().optional(),
  /** Who wrote the summary: Claude (complete_plan), or Waypoint from the plan when Claude wrote none. */
  by: z.enum(['claude', 'waypoint']).optional(),
  /**
   * The plan's planning style: a WBS plan is a breakdown whose items are planned, not worked
   * through, so its card counts items rather than "steps completed" (absent in older logs).
   */
  dialect: Dialect.optional(),
  /** How the plan ended, when that is not what the summary's status says (an aborted plan). */
  planStatus: PlanStatus.optional(),
  /** "Undo plan" put its files back. */
  undone: PlanUndone.optional(),
  /** The goal check of this completion: "Goal check: met", "not met" with its findings, or failed. */
  goalCheck: GoalCheck.pick({ outcome: true, findings: true, error: true, noProgress: true, reopened: true }).optional(),
});

export const NoticeItem = z.object({
  ...base,
  kind: z.literal('notice'),
  level: z.enum(['info', 'warning', 'error']),
  /** A machine-readable cause, e.g. 'auth', 'rate_limit', 'overloaded', 'network'. */
  code: z.string().optional(),
  text: z.string(),
});

/**
 * Where a chat was rerun from an edited message or a retried reply, naming the files the replaced
 * turns changed. What it replaced is kept as another version of the message in the same chat;
 * chats saved by older versions of Waypoint kept it as another chat (`earlier`), still shown.
 */
export const RerunItem = z.object({
  ...base,
  kind: z.literal('rerun'),
  how: z.enum(['edit', 'retry']),
  earlier: z.object({ chatId: z.string(), title: z.string() }).optional(),
  /** Files the replaced turns had changed that were put back from their checkpoints before the rerun. */
  restored: z.array(z.string()).optional(),
  /** Files the replaced turns changed that were left as they are ("Undo plan" in the replaced version restores them). */
  changed: z.array(z.string()).optional(),
});

/**
 * Older turns summarised by Claude to keep the chat within the model's context window: later
 * requests carry `summary` instead of the API messages before `upTo`. The transcript keeps
 * every item; this marker only says where the summary took over (and expands to it).
 */
export const CompactionItem = z.object({
  ...base,
  kind: z.literal('compaction'),
  summary: z.string(),
  /** 'auto' before a request would pass the window; 'manual' from "Compact now". */
  trigger: z.enum(['auto', 'manual']),
  /** API messages before this index are covered by the summary (this and earlier compactions). */
  upTo: z.number().int().nonnegative(),
  /** Estimated input tokens of the chat's next request before and after compacting. */
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  /** What the summary request(s) cost, in USD. */
  costUsd: z.number().nonnegative(),
});

export const TranscriptItem = z.discriminatedUnion('kind', [
  UserItem,
  AssistantItem,
  ToolCallItem,
  ThinkingItem,
  PlanChangeItem,
  PlanCompletionItem,
  NoticeItem,
  RerunItem,
  CompactionItem,
]);
export type TranscriptItem = z.infer<typeof TranscriptItem>;
export type UserItem = z.infer<typeof UserItem>;
export type AssistantItem = z.infer<typeof AssistantItem>;
export type ToolCallItem = z.infer<typeof ToolCallItem>;
export type ThinkingItem = z.infer<typeof ThinkingItem>;
export type PlanChangeItem = z.infer<typeof PlanChangeItem>;
export type PlanCompletionItem = z.infer<typeof PlanCompletionItem>;
export type NoticeItem = z.infer<typeof NoticeItem>;
export type RerunItem = z.infer<typeof RerunItem>;
export type CompactionItem = z.infer<typeof CompactionItem>;

/** The state of a chat's run: a discriminated union, never a pile of booleans. */
export const RunState = z.discriminatedUnion('status', [
  z.object({ status: z.literal('idle') }),
  z.object({ status: z.literal('running'), phase: z.enum(['requesting', 'streaming', 'tools', 'compacting']) }),
  z.object({
    status: z.literal('retrying'),
    reason: z.string(),
    attempt: z.number().int().positive(),
    maxAttempts: z.number().int().positive(),
    retryAt: z.string(),
  }),
  z.object({ status: z.literal('awaiting_approval'), requestId: z.string() }),
  z.object({ status: z.literal('awaiting_escalation'), requestId: z.string() }),
  z.object({ status: z.literal('awaiting_question'), requestId: z.string() }),
]);
export type RunState = z.infer<typeof RunState>;

/** Tokens the chat's context holds against the chosen model's window (its max_input_tokens). */
export const ContextUse = z.object({
  tokens: z.number().int().nonnegative(),
  window: z.number().int().positive(),
});
export type ContextUse = z.infer<typeof ContextUse>;

export const SessionSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  planProgress: z
    .object({
      completed: z.number().int(),
      total: z.number().int(),
      status: z.string(),
      /** The last turn ended (end_turn or Stop) with this active plan unfinished: the chat offers "Continue plan". */
      paused: z.boolean().optional(),
    })
    .optional(),
  workspace: z.string().optional(),
  /** The chat works in its own git worktree (Settings "Work in a git worktree"); `workspace` is inside it. */
  worktree: ChatWorktree.optional(),
  /** Calls (tool_results.callKey) cut off with their effect unknown: the same call again asks first. */
  interruptedCalls: z.array(z.string()).max(100).optional(),
  /** The last run ended mid-way (crash, kill): the chat offers "Resume". */
  interrupted: z.boolean().optional(),
  usage: Usage.optional(),
  /** Cost in USD per plan step, keyed `${planId}#${stepId}` (the step in progress when each request was sent). */
  stepCosts: z.record(z.string(), z.number().nonnegative()).optional(),
  /** Cost in USD per plan, keyed by plan id: every request sent while it was active (its budget's spend). */
  planCosts: z.record(z.string(), z.number().nonnegative()).optional(),
  /** Requests its `usage` sums (the chat's measured cost per request); absent in chats metered before it was counted. */
  requestCount: z.number().int().nonnegative().optional(),
  /** How full the model's context window is: the chat's context after the last reply (the context meter). */
  context: ContextUse.optional(),
  /** A chat not started in the window: a headless `waypoint run`, or an MCP client planning through `waypoint mcp`. */
  origin: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('run') }),
      z.object({ kind: z.literal('mcp'), client: z.string(), style: Dialect }),
    ])
    .optional(),
  /** Lines of the chat's log that could not be read and were skipped at the last start. */
  skippedLines: z.number().int().nonnegative().optional(),
  /** Why the chat could not be rebuilt whole from its log: it opens read-only with what could be read. */
  damaged: z.string().optional(),
  /** "Pin chat": the chat is listed before the others, whatever its date. */
  pinned: z.boolean().optional(),
  /** "Chat model": the model this chat's runs use; absent, they use the default in Settings. */
  model: z.string().trim().min(1).max(200).optional(),
  /** "Approve for this chat": rules for this chat only (they survive its restart, and never reach another chat). */
  approvalRules: z.array(ApprovalRule).optional(),
  /**
   * "Queued": a message waits for a run slot ("Runs at once"); its ticket orders the queue, and
   * being in the summary (so in the log and the chat index) it survives a restart.
   */
  queued: z.number().int().positive().optional(),
  /**
   * What the chat was doing when the list was read (listSessions stamps it; never kept): after a
   * reload the sidebar shows chats working or waiting for a person before any event of theirs.
   */
  run: z.enum(['working', 'needs-you']).optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

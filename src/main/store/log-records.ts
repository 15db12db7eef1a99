import { z } from 'zod';
import { Plan } from '../../shared/plan';
import { PlanChange } from '../../shared/plan-change';
import { RunState, SessionSummary, TranscriptItem } from '../../shared/transcript';
import { Usage } from '../../shared/usage';
import { SubAgent, SubAgentLine, SubAgentWaiting } from '../../shared/subagents';

/**
 * One line of a chat's event log (`sessions/<id>/events.jsonl`). Every line carries a sequence
 * number and a type; replay folds them in order (replay.ts). Lines are validated on load, so a
 * hand-edited or future-format line is skipped with a warning instead of failing the chat.
 */

const head = { seq: z.number().int().nonnegative(), t: z.string() };

/** A message of the Messages API history; its blocks are kept verbatim. */
const ApiMessage = z.object({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]) });

/** The prompts (approvals, escalations, questions from Claude) the loop pauses on, kept as the events the loop fired. */
const PromptEventType = z.enum([
  'approval_requested',
  'approval_resolved',
  'escalation_requested',
  'escalation_resolved',
  'question_requested',
  'question_resolved',
]);

export const LogRecord = z.discriminatedUnion('type', [
  z.object({ ...head, type: z.literal('created'), session: SessionSummary }),
  z.object({ ...head, type: z.literal('summary'), session: SessionSummary }),
  /** A transcript item as it was published (upsert by id); the assistant's text rides along. */
  z.object({ ...head, type: z.literal('item'), item: TranscriptItem }),
  /** Streamed text since the last record, so a crash mid-stream keeps what the user saw. */
  z.object({ ...head, type: z.literal('text'), itemId: z.string(), text: z.string() }),
  /**
   * The API history from index `from` on is replaced by `messages` (appends and merges). With
   * `keep`, the first of `messages` continues the message at `from` instead: that message keeps
   * its first `keep` blocks and the new ones follow (a message merged into a trailing one is
   * logged as its own blocks only, so unanswered messages do not rewrite each other: logged-history.ts).
   */
  z.object({ ...head, type: z.literal('history'), from: z.number().int().nonnegative(), keep: z.number().int().nonnegative().optional(), messages: z.array(ApiMessage) }),
  /** A plan change; replay derives its transcript line from `change` (logs before it have item records instead). */
  z.object({ ...head, type: z.literal('plan'), version: z.number().int().nonnegative(), plan: Plan, change: PlanChange.optional() }),
  z.object({ ...head, type: z.literal('run'), state: RunState }),
  /**
   * An edited message, a retried reply or another version shown replaced the chat from this item
   * on (logs of older versions: the chat as it was became another chat): the items from it on are
   * gone, and the plan too when it was made there (or another version's is shown). The history
   * record written just before it holds the cut history.
   */
  z.object({ ...head, type: z.literal('rewind'), itemId: z.string(), planDropped: z.boolean() }),
  /**
   * A version of an edited message (or retried reply) kept beside the one shown
   * (chats/chat-versions.ts): its items, its history from API message `from` on, its plan. A later
   * record of the same group and index replaces it (a version shown, continued and left again).
   */
  z.object({
    ...head,
    type: z.literal('version'),
    group: z.string(),
    index: z.number().int().nonnegative(),
    from: z.number().int().nonnegative(),
    history: z.array(ApiMessage),
    items: z.array(TranscriptItem),
    plan: Plan.nullable(),
  }),
  z.object({ ...head, type: z.literal('prompt'), event: z.object({ type: PromptEventType }).passthrough() }),
  /** A sub-agent's snapshot (shared/subagents.ts): started, its plan changed, ended; the latest of an id wins. */
  z.object({ ...head, type: z.literal('subagent'), agent: SubAgent }),
  /** A sub-agent that asked the user: its history and what it may use, to run it on after the answer. */
  z.object({ ...head, type: z.literal('subagent_waiting'), waiting: SubAgentWaiting }),
  /** A line of a sub-agent's transcript as it happened (a reply, a tool call's new state); one of the same item replaces it. */
  z.object({ ...head, type: z.literal('subagent_line'), agentId: z.string().min(1), line: SubAgentLine }),
  /** One request's usage, priced, and the plan step it worked on. */
  z.object({
    ...head,
    type: z.literal('usage'),
    model: z.string(),
    usage: Usage,
    step: z.object({ planId: z.string(), stepId: z.number().int() }).nullable(),
    /** The active plan whose run sent it (its budget's spend); absent in older logs. */
    planId: z.string().nullable().optional(),
  }),
]);
export type LogRecord = z.infer<typeof LogRecord>;
export type LogRecordType = LogRecord['type'];

/** What a writer is handed: the record without the head it adds. */
export type LogEntry = LogRecord extends infer R ? (R extends LogRecord ? Omit<R, 'seq' | 't'> : never) : never;

import { z } from 'zod';
import { Plan, type Plan as PlanType } from './plan';
import { ToolCallItem, type TranscriptItem } from './transcript';

/**
 * Sub-agents (docs/contract.md §10): a `delegate` call starts a run of its own with a
 * fresh history and its own plan. The chat keeps each one as a snapshot (`subagent_updated`, the
 * log's `subagent` record): a later snapshot of the same id replaces the earlier one.
 */

/** What the panel shows: Working, Done, Failed, Stopped, Interrupted (and "Needs you" while working: subAgentStatusText). */
export const SubAgentStatus = z.enum(['working', 'done', 'failed', 'stopped', 'interrupted']);
export type SubAgentStatus = z.infer<typeof SubAgentStatus>;

/** Settings "Sub-agent depth" is at most this: a chain of delegates never goes deeper. */
export const MAX_SUB_AGENT_DEPTH = 3;

/** One line of a sub-agent's own transcript, as its transcript card shows it: a reply, a tool call, its thinking, a change of its plan. */
export const SubAgentLine = z.object({
  /** The transcript item it shows: a later line of the same item (a call that ended) replaces it. */
  id: z.string().optional(),
  kind: z.enum(['message', 'tool', 'thinking', 'plan']),
  /** The reply's text, the tool call's summary ("Read notes.md"), the thinking's text, or the plan change in words. */
  text: z.string(),
  /** A tool call's state: running, awaiting_approval, done, error, denied. */
  status: z.string().optional(),
  /** A tool call's result. */
  result: z.string().optional(),
});
export type SubAgentLine = z.infer<typeof SubAgentLine>;

/**
 * The line a sub-agent's transcript item makes, or null (a reply or thinking still streaming,
 * thinking that was encrypted or discarded, a notice). Whole: the chat's log keeps each line
 * once, as its own record (`subagent_line`), so nothing is shortened (a snapshot logged whole at
 * every change could not afford that).
 */
export function subAgentLine(item: TranscriptItem): SubAgentLine | null {
  if (item.kind === 'assistant' && item.status !== 'streaming' && item.text.trim()) return { id: item.id, kind: 'message', text: item.text.trim() };
  if (item.kind === 'tool_call') return { id: item.id, kind: 'tool', text: item.summary, status: item.status, ...(item.result ? { result: item.result } : {}) };
  if (item.kind === 'thinking' && (item.status === 'done' || item.status === 'stopped') && !item.redacted && item.text.trim()) return { id: item.id, kind: 'thinking', text: item.text.trim() };
  if (item.kind === 'plan_change') return { id: item.id, kind: 'plan', text: item.text };
  return null;
}

/** A sub-agent's lines with this one in: in its item's place when it is there, else at the end. */
export function withLine(lines: readonly SubAgentLine[] | undefined, line: SubAgentLine): SubAgentLine[] {
  const held = lines ?? [];
  const at = line.id === undefined ? -1 : held.findIndex((l) => l.id === line.id);
  return at < 0 ? [...held, line] : held.map((l, i) => (i === at ? line : l));
}

/** A later snapshot of a sub-agent keeps the lines gathered so far (its own carries them only in logs of older versions). */
export function withSnapshot(held: SubAgent | undefined, next: SubAgent): SubAgent {
  return next.transcript || !held?.transcript ? next : { ...next, transcript: held.transcript };
}

export const SubAgent = z.object({
  id: z.string().min(1).max(100),
  /** The delegate call that started it: its tool_result is this sub-agent's result. */
  parentToolUseId: z.string().min(1),
  /** The sub-agent that delegated to it; absent for one the chat's own run started. */
  parentAgentId: z.string().min(1).optional(),
  /** The task's first line, at most 60 characters. */
  title: z.string(),
  /** 1 for a sub-agent of the chat, 2 for one of a sub-agent, … */
  depth: z.number().int().min(1).max(MAX_SUB_AGENT_DEPTH),
  /** The parent's step in progress when it started (the panel nests it there); null: none was. */
  stepId: z.number().int().positive().nullable(),
  status: SubAgentStatus,
  /** Its own plan, as of its last change. */
  plan: Plan.nullable(),
  /** What its delegate call returned, once it ended. */
  result: z.string().optional(),
  /**
   * Its replies and tool calls (its transcript card), gathered from its `subagent_line` events as
   * they happen. Older versions put the last 60 of them, shortened, in the final snapshot.
   */
  transcript: z.array(SubAgentLine).optional(),
  /**
   * It waits for the person: its question is the one the chat shows, or in line behind another
   * sub-agent's (the chat shows one at a time). The panel and its card say "Needs you" for both.
   */
  asking: z.literal(true).optional(),
});
export type SubAgent = z.infer<typeof SubAgent>;

const ApiHistory = z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]) }));

/** A tool_result as the API history holds it (its content a string or blocks). */
const ApiToolResult = z.object({ type: z.literal('tool_result'), tool_use_id: z.string().min(1) }).catchall(z.unknown());

/** A sub-agent waiting on its own sub-agent's delegate call while that one waits for the user. */
export const WaitingParent = z.object({
  agentId: z.string().min(1),
  readOnly: z.boolean(),
  /** Its delegate call's card, so that call's line on its card ends where it was after a restart. */
  card: ToolCallItem.optional(),
  history: ApiHistory,
  /**
   * The results of the other calls of its last reply that had ended (a sibling sub-agent done,
   * a file read): after a restart they answer those calls, not "Interrupted". Absent in logs of
   * older versions, whose such calls are interrupted.
   */
  finished: z.array(ApiToolResult).optional(),
});
export type WaitingParent = z.infer<typeof WaitingParent>;

/**
 * A sub-agent waiting for the user's answer, as the chat's log keeps it (`subagent_waiting`): its
 * history up to the question (the held call open at its end) and what it may use, so the answer
 * can run it on after a restart as it would have before (agent/loop/sub-agent-pauses.ts).
 */
export const SubAgentWaiting = z.object({
  agentId: z.string().min(1),
  /** The chat's pending request it waits on. */
  requestId: z.string().min(1),
  readOnly: z.boolean(),
  /** The held call's card in its transcript, so its line on the sub-agent's card goes on after a restart. */
  card: ToolCallItem.optional(),
  /** Its API history, as the chat's own is logged. */
  history: ApiHistory,
  /**
   * The sub-agents above it (nearest first) when it is deeper than 1: each waits on the delegate
   * call that started the one below, open at the end of its history, so a restart can run the
   * chain on from the answer up to the chat's run as it would have gone.
   */
  parents: z.array(WaitingParent).optional(),
  /**
   * The results of the other calls of the chat's own reply (the one whose delegate call started
   * this chain) that had ended: after a restart they answer those calls, not "Interrupted". Absent
   * when none had, and in logs of older versions, whose such calls are interrupted.
   */
  chatFinished: z.array(ApiToolResult).optional(),
});
export type SubAgentWaiting = z.infer<typeof SubAgentWaiting>;

/** How events of a sub-agent name it (headless `--json`). */
export interface AgentTag {
  id: string;
  title: string;
  depth: number;
}

const STATUS_TEXT: Record<SubAgentStatus, string> = {
  working: 'Working',
  done: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
};

/**
 * Its status in words; "Needs you" (the chat's word for a person being asked) while it is
 * working and the chat is asking its question: it waits for the person, not for Claude.
 */
export function subAgentStatusText(status: SubAgentStatus, waitsForYou = false): string {
  return status === 'working' && waitsForYou ? 'Needs you' : STATUS_TEXT[status];
}

/** The task's first non-empty line, cut to 60 characters (an ellipsis says it was cut). */
export function subAgentTitle(task: string): string {
  const line = task.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
  return line.length <= 60 ? line : `${line.slice(0, 59).trimEnd()}…`;
}

/** "N/M steps" of its plan (null while it has none). */
export function subAgentProgress(plan: PlanType | null): string | null {
  if (!plan) return null;
  const done = plan.steps.filter((s) => s.status === 'completed').length;
  return `${done}/${plan.steps.length} steps`;
}

/** Its plan's state in words, for the parent's tool_result: which steps were done and which was in progress. */
export function planStateText(plan: PlanType | null): string {
  if (!plan) return 'It had made no plan.';
  const done = plan.steps.filter((s) => s.status === 'completed').map((s) => `${s.id}. ${s.title}`);
  const going = plan.steps.find((s) => s.status === 'in_progress');
  const lines = [`Its plan "${plan.goal}": ${subAgentProgress(plan)} done.`];
  if (done.length) lines.push(`Done: ${done.join('; ')}.`);
  if (going) lines.push(`In progress: ${going.id}. ${going.title}.`);
  return lines.join(' ');
}

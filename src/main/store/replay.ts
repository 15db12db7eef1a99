import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { withLine, withSnapshot, type SubAgent, type SubAgentWaiting } from '../../shared/subagents';
import { planChangeItems } from '../../shared/plan-change';
import type { RunState, SessionSummary, TranscriptItem } from '../../shared/transcript';
import { withPlanProgress, withoutPlanProgress } from '../chats/chat-session';
import type { KeptVersion } from '../chats/chat-versions';
import type { LineSpan } from './log-reader';
import type { LogRecord } from './log-records';
import { applyHistoryChange, historyChangeProblem } from '../chats/history-change';
import { PagedItems } from './paging/paged-items';

/** A chat as its log describes it: exactly what the user saw and what Claude had been sent. */
export interface ReplayedChat {
  summary: SessionSummary;
  /** The transcript, older items left in the log when `replay` was told where its lines lie. */
  items: PagedItems;
  /** The whole transcript, in order (read back from the log where it left memory). */
  readonly transcript: TranscriptItem[];
  history: MessageParam[];
  /** Where the `history` records folded into `history` lie (when replay was told), to read it back later. */
  historySpans: LineSpan[];
  plan: Plan | null;
  /** The last run state the log saw; anything but idle means the app stopped mid-run. */
  runState: RunState;
  /** Prompt events in order (approval/escalation/question requested/resolved), for the session to fold. */
  prompts: WaypointEvent[];
  /** The chat's sub-agents, the latest snapshot of each, in the order they started. */
  subagents: Map<string, SubAgent>;
  /** Sub-agents that asked the user: the latest ask of each. */
  waitingAgents: Map<string, SubAgentWaiting>;
  /** Cost per plan step, keyed `${planId}#${stepId}`. */
  stepCosts: Record<string, number>;
  /** Spend per plan (its budget's), from the usage records. */
  planCosts: Record<string, number>;
  /** The versions kept beside the ones shown (chats/chat-versions.ts), the latest record of each. */
  versions: KeptVersion[];
  /** Records that could not apply (a history change that does not fit what came before): skipped, in words. */
  problems: string[];
}

export interface ReplayOptions {
  /** Each record's line in the log (log-reader.ts), and the log's path: items may then leave memory. */
  spans?: ReadonlyArray<LineSpan | undefined>;
  path?: string;
  /** How many of the newest items stay in memory (paged-items.ts). */
  keepRecent?: number;
}

/** Folds a log's records (already validated and in seq order). Returns null without a `created`. */
export function replay(records: readonly LogRecord[], options: ReplayOptions = {}): ReplayedChat | null {
  let chat: ReplayedChat | null = null;
  const items = new PagedItems(options.keepRecent);
  const { spans, path } = options;
  if (spans && path) items.attach(path);
  for (const [index, record] of records.entries()) {
    if (record.type === 'created') {
      chat ??= {
        summary: record.session,
        items,
        get transcript() {
          return items.values();
        },
        history: [],
        historySpans: [],
        plan: null,
        runState: { status: 'idle' },
        prompts: [],
        subagents: new Map(),
        waitingAgents: new Map(),
        stepCosts: {},
        planCosts: {},
        versions: [],
        problems: [],
      };
      continue;
    }
    if (!chat) continue;
    switch (record.type) {
      case 'summary':
        chat.summary = record.session;
        break;
      case 'item':
        items.set(record.item);
        if (spans?.[index]) items.logged(record.item.id, 'item', spans[index]);
        break;
      case 'text':
        items.appendText(record.itemId, record.text);
        if (spans?.[index]) items.logged(record.itemId, 'text', spans[index]);
        break;
      case 'history': {
        // A change that does not fit is skipped (the log was changed by hand): never a history the API refuses.
        const problem = historyChangeProblem(chat.history, record);
        if (problem) {
          chat.problems.push(`the history record with seq ${record.seq} was skipped: ${problem}`);
          break;
        }
        applyHistoryChange(chat.history, record);
        if (spans?.[index]) chat.historySpans.push(spans[index]);
        break;
      }
      case 'plan':
        // Versions only move forward; a stale line (never written by us) cannot roll a plan back.
        if (!chat.plan || record.plan.id !== chat.plan.id || record.version > chat.plan.version) {
          // The change's transcript line, derived as the live chat derived it (older logs have item records).
          if (record.change) for (const item of planChangeItems(chat.plan, { sessionId: chat.summary.id, plan: record.plan, change: record.change })) items.set(item);
          chat.plan = record.plan;
          // The sidebar's progress, as the live chat derives it (chat-session.ts): a plan record is
          // followed by a summary record only when the summary changed in more than that.
          chat.summary = withPlanProgress(chat.summary, record.plan);
        }
        break;
      case 'run':
        chat.runState = record.state;
        break;
      case 'rewind':
        items.cutFrom(record.itemId);
        if (record.planDropped) {
          chat.plan = null;
          chat.summary = withoutPlanProgress(chat.summary);
        }
        break;
      case 'version': {
        const { seq: _seq, t: _t, type: _type, ...kept } = record;
        chat.versions.push(kept as KeptVersion);
        break;
      }
      case 'prompt':
        chat.prompts.push(record.event as unknown as WaypointEvent);
        break;
      case 'subagent':
        chat.subagents.set(record.agent.id, withSnapshot(chat.subagents.get(record.agent.id), record.agent));
        break;
      case 'subagent_waiting':
        chat.waitingAgents.set(record.waiting.agentId, record.waiting);
        break;
      case 'subagent_line': {
        const agent = chat.subagents.get(record.agentId);
        if (agent) chat.subagents.set(agent.id, { ...agent, transcript: withLine(agent.transcript, record.line) });
        break;
      }
      case 'usage':
        if (record.planId) chat.planCosts[record.planId] = (chat.planCosts[record.planId] ?? 0) + record.usage.costUsd;
        if (record.step) {
          const key = `${record.step.planId}#${record.step.stepId}`;
          chat.stepCosts[key] = (chat.stepCosts[key] ?? 0) + record.usage.costUsd;
        }
        break;
    }
  }
  return chat;
}

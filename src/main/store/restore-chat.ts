import { budgetPromptOf } from '../../shared/budget';
import { isAwaitingApproval } from '../../shared/plan';
import type { WaypointEvent } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/transcript';
import { unansweredToolUses } from '../chats/api-history';
import type { HistoryChange } from '../chats/history-change';
import { ChatSession } from '../chats/chat-session';
import { parkedChain, type ParkedLevel } from '../chats/parked-agents';
import { noticeItem } from '../common/transcript-items';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { SubAgent } from '../../shared/subagents';
import { interruptedResult } from '../../shared/subagent-results';
import { INTERRUPTED_EFFECT } from '../../shared/tool-results';
import type { ReplayedChat } from './replay';

export const INTERRUPTED_RESULT = 'Interrupted: Waypoint was closed before this tool call finished, so it may not have run.';
export const INTERRUPTED_NOTICE = 'Waypoint was closed while Claude was working. Press Resume to continue from where it stopped.';

/** What restoring reads of a pending request (shared/prompts.ts): its id, its held call, the sub-agent that asks. */
interface Asked {
  id: string;
  toolUseId?: string | undefined;
  agent?: { id: string } | undefined;
}

export interface RestoredChat {
  session: ChatSession;
  /** Items changed to close an interrupted run (to log as the fix-up). */
  fixedItems: TranscriptItem[];
  /** Sub-agents a crash cut off, now "interrupted" (to log as the fix-up too). */
  fixedAgents: SubAgent[];
  /** The history changes of that fix-up (results for the calls a kill left open), to log before the items. */
  historyRepairs: HistoryChange[];
}

/**
 * A live ChatSession from a replayed log. A run the log saw start but not end was cut off by a
 * crash or kill: open tool calls get an is_error "interrupted" result (no orphan tool_use), the
 * half-streamed reply is marked as cut off (its text never reached the API history, so a resume
 * cannot repeat it), and the chat is marked interrupted when there is something to resume.
 * A run paused on a question (approval, escalation) is not cut off: the question stays pending.
 * `repair: false` takes the log as it is: its run may be going on in another process.
 */
export function restoreChat(chat: ReplayedChat, options: { repair?: boolean } = {}): RestoredChat {
  const costs = {
    ...(chat.stepCosts && Object.keys(chat.stepCosts).length ? { stepCosts: chat.stepCosts } : {}),
    ...(chat.planCosts && Object.keys(chat.planCosts).length ? { planCosts: chat.planCosts } : {}),
  };
  const session = new ChatSession({ ...chat.summary, ...costs }, chat.items);
  const id = chat.summary.id;
  session.compaction = session.itemsOfKind('compaction').at(-1) ?? null;
  session.restoreHistory(chat.history);
  session.plan = chat.plan;
  // In log order: a later record of a version replaces an earlier one.
  for (const kept of chat.versions) session.keepVersion(kept, 'log');
  for (const event of chat.prompts) session.apply(event as WaypointEvent);
  for (const agent of chat.subagents.values()) session.subagents.set(agent.id, agent);
  for (const waiting of chat.waitingAgents.values()) session.waitingAgents.set(waiting.agentId, waiting);
  dropStalePrompts(session);

  const fixedItems: TranscriptItem[] = [];
  const pending = hasPendingPrompt(session);
  // Another process's live chat (followed, never repaired) shows its run state as logged.
  if (options.repair === false) {
    session.runState = chat.runState;
    return { session, fixedItems, fixedAgents: [], historyRepairs: [] };
  }
  // Claude's question waits as it did before the restart: Stop stays offered (it cancels it).
  if (session.pendingQuestion) session.runState = { status: 'awaiting_question', requestId: session.pendingQuestion.id };
  const waiting = waitingChainOf(session);
  if (waiting) return settleAroundWaiting(session, waiting);
  if (chat.runState.status === 'idle' || pending) return { session, fixedItems, fixedAgents: [], historyRepairs: [] };

  // A whole read of the transcript, once, for a chat a crash cut off mid-run.
  const cutOff = new Set<string>();
  for (const item of session.transcript) {
    if ((item.kind === 'assistant' || item.kind === 'thinking') && item.status === 'streaming') fixedItems.push({ ...item, status: 'error' });
    // A changing call that was running may have done all, part or none of its work: Claude hears so.
    if (item.kind === 'tool_call' && item.status === 'running' && item.changes) {
      fixedItems.push({ ...item, status: 'error', result: INTERRUPTED_EFFECT, interrupted: true });
      cutOff.add(item.toolUseId);
    } else if (item.kind === 'tool_call' && (item.status === 'running' || item.status === 'awaiting_approval')) {
      fixedItems.push({ ...item, status: 'error', result: INTERRUPTED_RESULT });
    }
  }
  const historyRepairs: HistoryChange[] = [];
  const repairing = session.onHistoryChange(({ change }) => historyRepairs.push(change));
  const fixedAgents = interruptSubAgents(session);
  const open = unansweredToolUses(session.history);
  if (open.some((id) => cutOff.has(id))) {
    session.appendUser(open.filter((id) => cutOff.has(id)).map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: INTERRUPTED_EFFECT, is_error: true })));
  }
  if (unansweredToolUses(session.history).length) session.closeOpenToolUses(INTERRUPTED_RESULT);
  repairing.dispose();
  const resumable = session.history.at(-1)?.role === 'user';
  if (resumable) fixedItems.push(noticeItem('warning', INTERRUPTED_NOTICE, 'interrupted'));
  for (const item of fixedItems) session.apply({ type: 'transcript_item', sessionId: id, item });
  session.summary = { ...session.summary, interrupted: resumable };
  return { session, fixedItems, fixedAgents, historyRepairs };
}

/**
 * Sub-agents a crash cut off are "interrupted", never rerun by themselves: the delegate call of
 * one the chat's run started gets a result that says so, with its plan's state, so Claude knows
 * what was done when the chat goes on (a deeper one's call lived in its parent's run, gone too,
 * unless that parent waits on with it: sub-agents.ts answers it when that parent runs on).
 */
function interruptSubAgents(session: ChatSession, waiting: ReadonlySet<string> = new Set()): SubAgent[] {
  const fixed: SubAgent[] = [];
  const open = new Set(unansweredToolUses(session.history));
  const results: ToolResultBlockParam[] = [];
  for (const agent of session.subagents.values()) {
    if (agent.status !== 'working' || waiting.has(agent.id)) continue;
    const result = interruptedResult(agent.plan);
    const interrupted: SubAgent = { ...agent, status: 'interrupted', result };
    session.subagents.set(agent.id, interrupted);
    fixed.push(interrupted);
    if (!agent.parentAgentId && open.has(agent.parentToolUseId)) results.push({ type: 'tool_result', tool_use_id: agent.parentToolUseId, content: result, is_error: true });
  }
  if (results.length) session.appendUser(results);
  return fixed;
}

/**
 * A question is only answerable while the tool call it holds back is still open in the history;
 * one whose call was answered (a log cut between the two records) would leave the chat stuck. A
 * sub-agent's question holds a call of its own history back: it is answerable while the sub-agent
 * can be run on from its logged history (`resumable`).
 */
function dropStalePrompts(session: ChatSession): void {
  const open = new Set(unansweredToolUses(session.history));
  const stale = (request: Asked | null): boolean => !!request && (request.agent ? !resumable(session, request) : request.toolUseId === undefined || !open.has(request.toolUseId));
  if (stale(session.pendingApproval)) session.pendingApproval = null;
  if (stale(session.pendingEscalation)) session.pendingEscalation = null;
  if (stale(session.pendingQuestion)) session.pendingQuestion = null;
}

/**
 * A sub-agent's question can still be answered after a restart when the sub-agent waited on it
 * (its logged `subagent_waiting`) and it and every sub-agent above it can be run on from the
 * log (chats/parked-agents.ts): the answer runs it on, then each one above it, then the chat's run.
 */
function resumable(session: ChatSession, request: Asked): boolean {
  return parkedChain(session, request) !== null;
}

/** The waiting sub-agent's chain (the chat's own sub-agent first), when a question of one waits. */
function waitingChainOf(session: ChatSession): ParkedLevel[] | null {
  const request = session.pendingApproval ?? session.pendingEscalation ?? session.pendingQuestion;
  return request?.agent ? parkedChain(session, request) : null;
}

/**
 * The app stopped while a sub-agent waited for the user: its question stays, and so does its
 * delegate call, open; everything else the run had going is closed as a crash closes it (the
 * other sub-agents interrupted, the other open calls answered), so the answer's run goes on from
 * the waiting sub-agent alone. The calls of that reply that had ended get the results its waiting
 * record kept (`chatFinished`), not "Interrupted": they ran, and Claude must not repeat them.
 */
function settleAroundWaiting(session: ChatSession, chain: ParkedLevel[]): RestoredChat {
  const keep = chain[0]!.agent.parentToolUseId;
  const fixedItems: TranscriptItem[] = [];
  for (const item of session.transcript) {
    if (item.kind === 'tool_call' && item.toolUseId !== keep && (item.status === 'running' || item.status === 'awaiting_approval')) fixedItems.push({ ...item, status: 'error', result: INTERRUPTED_RESULT });
  }
  const historyRepairs: HistoryChange[] = [];
  const repairing = session.onHistoryChange(({ change }) => historyRepairs.push(change));
  const fixedAgents = interruptSubAgents(session, new Set(chain.map((level) => level.agent.id)));
  const ended = new Map((session.waitingAgents.get(chain.at(-1)!.agent.id)?.chatFinished ?? []).map((result) => [result.tool_use_id, result as ToolResultBlockParam]));
  const rest = unansweredToolUses(session.history).filter((id) => id !== keep);
  if (rest.length) session.appendUser(rest.map((id) => ended.get(id) ?? { type: 'tool_result' as const, tool_use_id: id, content: INTERRUPTED_RESULT, is_error: true }));
  repairing.dispose();
  for (const item of fixedItems) session.apply({ type: 'transcript_item', sessionId: session.summary.id, item });
  return { session, fixedItems, fixedAgents, historyRepairs };
}

export function hasPendingPrompt(session: ChatSession): boolean {
  return !!session.pendingApproval || !!session.pendingEscalation || !!session.pendingQuestion;
}

/**
 * The chat's plan asks the person something (a proposal to approve, "Budget reached"): no request
 * of the session says so, the plan does. The chat index must not list such a chat unread, or the
 * listing could not stamp it "needs-you" after a restart.
 */
export function planAsks(session: ChatSession): boolean {
  return isAwaitingApproval(session.plan) || budgetPromptOf(session.summary.id, session.plan) !== null;
}

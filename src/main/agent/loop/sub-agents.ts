import { randomUUID } from 'node:crypto';
import type { WaypointEvent } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import { stoppedResult } from '../../../shared/subagent-results';
import type { AgentEvent } from '../../../shared/agent-events';
import { planStateText, subAgentLine, subAgentTitle, type SubAgent, type WaitingParent } from '../../../shared/subagents';
import { interruptedResult } from '../../../shared/subagent-results';
import { planChangeItems } from '../../../shared/plan-change';
import { unansweredToolUses } from '../../chats/api-history';
import type { ParkedLevel } from '../../chats/parked-agents';
import { INTERRUPTED_RESULT } from '../../store/restore-chat';
import { ChatSession } from '../../chats/chat-session';
import type { ChatItems } from '../../chats/chat-items';
import { nowIso } from '../../common/transcript-items';
import { createDelegateTool, type DelegateInput } from '../../tools/delegate';
import type { AgentFrame, SubAgentPort } from './agent-frame';
import { fail, ok, type ToolContext, type ToolDefinition, type ToolOutcome } from '../../tools/tool';
import { runChat } from './chat-run';
import type { RunContext } from './run-loop';
import { SubAgentSlots } from './sub-agent-slots';
import { NOT_RUN_STOPPED, SubAgentPauses } from './sub-agent-pauses';
import type { PauseKinds } from '../pauses/pause-kinds';
import { settleHeld, type HeldCallAnswer } from '../pauses/pause-kind';
import { ABORTED_RESULT } from '../../recovery/escalation-answer';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { EndedCalls } from './ended-calls';

/**
 * Sub-agents (docs/contract.md §10): each delegate call runs the same conversation loop
 * (run-loop.ts) on a session of its own — a fresh history that starts with the task, its own plan
 * under its own key in the plan service — so every request goes the one request path (context
 * fitting, retries, pricing). What the chat keeps of it is a snapshot, `subagent_updated`,
 * published on the chat (and logged) when it starts, when its plan changes and when it ends.
 */

/** The chat's sub-agents while its run lasts: their slots, the ones working (for "Stop sub-agent"). */
export class SubAgentHost implements SubAgentPort<RunContext> {
  private readonly working = new Map<string, AbortController>();
  readonly slots: SubAgentSlots;
  /** Its sub-agents' questions, put to the user as the chat's (sub-agent-pauses.ts). */
  readonly pauses: SubAgentPauses;

  /** The chat's own open reply's calls that have ended: its waiting sub-agents' records keep them. */
  private readonly chatCalls: EndedCalls;

  constructor(
    readonly chatId: string,
    /** Publishes on the chat (its state, its log, the pump). */
    readonly publishChat: (event: WaypointEvent) => void,
    /** The chat's API history (its open reply's calls are the delegate calls' siblings). */
    chatHistory: () => readonly MessageParam[],
    atOnce: () => number,
    /** Where a sub-agent keeps its transcript (in memory: its card shows it while the chat is open). */
    readonly newItems: () => ChatItems,
    /** Each event of a sub-agent's own run, named (headless --json prints them). */
    readonly forward: (event: AgentEvent) => void = () => undefined,
    /** The kinds of question (what an answer or a Stop does to a held call); null: none can be asked. */
    kinds: PauseKinds | null = null,
  ) {
    this.slots = new SubAgentSlots(atOnce);
    this.chatCalls = new EndedCalls(chatHistory);
    this.pauses = new SubAgentPauses(chatId, publishChat, kinds, () => this.chatCalls.stillOpen());
  }

  /** A call of the chat's own run ended: kept while its reply is open, and every waiting sub-agent's record written again with it. */
  chatCallEnded(result: ToolResultBlockParam): void {
    this.chatCalls.add(result);
    this.pauses.callEnded(null);
  }

  /** The delegate tool of one run (the chat's or a sub-agent's): its calls start sub-agents of that run. */
  delegateFor(run: RunContext): ToolDefinition {
    return createDelegateTool((input, ctx) => runSubAgent(this, run, input, ctx));
  }

  /** "Stop sub-agent": that one and, through its signal, its own sub-agents; false when it is not working. */
  stop(agentId: string): boolean {
    const controller = this.working.get(agentId);
    controller?.abort();
    return !!controller;
  }

  /** @internal sub-agents.ts */
  track(agentId: string, controller: AbortController): () => void {
    this.working.set(agentId, controller);
    return () => this.working.delete(agentId);
  }
}

/** The plan service's key of a sub-agent's plan (and its session's id): never a chat's id. */
export function agentKey(chatId: string, agentId: string): string {
  return `${chatId}~${agentId}`;
}

/**
 * Runs one delegate call's sub-agent to its end and returns the call's result: its final text,
 * and its plan's completion summary (or state) when it planned. Never throws.
 */
async function runSubAgent(host: SubAgentHost, parent: RunContext, input: DelegateInput, ctx: ToolContext): Promise<ToolOutcome> {
  const settings = parent.settings();
  const depth = (parent.agent?.depth ?? 0) + 1;
  if (depth > settings.subAgentDepth) {
    return fail(
      'invalid_parameter',
      `A sub-agent at depth ${depth - 1} cannot start another one: Settings "Sub-agent depth" is ${settings.subAgentDepth}. Do this part yourself.`,
    );
  }
  const record: SubAgent = {
    id: `a-${randomUUID().slice(0, 8)}`,
    parentToolUseId: ctx.toolUseId ?? 'unknown',
    ...(parent.agent ? { parentAgentId: parent.agent.id } : {}),
    title: subAgentTitle(input.task),
    depth,
    stepId: stepInProgress(parent.plans.getPlan(parent.session.summary.id)),
    status: 'working',
    plan: null,
  };
  const readOnly = (parent.agent?.readOnly ?? false) || input.read_only === true;
  // A fresh history: the task, then the context; nothing of the parent's conversation.
  const context = input.context?.trim();
  return supervise(host, parent, record, readOnly, async (session) => {
    session.appendUser([{ type: 'text', text: input.task }, ...(context ? [{ type: 'text' as const, text: `Context:\n${context}` }] : [])]);
    return { approved: null };
  });
}

/**
 * Runs a sub-agent that was waiting for the user when the app restarted, from its logged
 * history: `held` is what the answer made of its held call (the kind's handler decided it).
 * `chain` is it and the sub-agents above it, the chat's own first (chats/parked-agents.ts); each
 * runs on inside the one above it once the one below has ended, as it would have without the
 * restart. The first one's result goes where its delegate call's would have: the tool_result of
 * that call, still open in the chat's history, and the call's card. The chat's run then goes on
 * from there (run-loop.ts).
 *
 * `stopAt`: "Stop sub-agent" on the chain's sub-agent at that index (`held` is then the kind's
 * `cancelled`): it and those below it end "Stopped" where they waited, as a live Stop ends them,
 * and the ones above it run on with its stopped result.
 */
export async function resumeSubAgent(
  host: SubAgentHost,
  chat: RunContext,
  chain: ParkedLevel[],
  toolUseId: string | undefined,
  held: Promise<HeldCallAnswer> | HeldCallAnswer,
  stopAt = chain.length,
): Promise<void> {
  const agent = chain[0]!.agent;
  // Snapshots as the restart left them: the siblings it cut off are among them, "interrupted".
  const agents = new Map([...chat.session.subagents.values()].map((a) => [a.parentToolUseId, a]));
  const outcome = await resumeLevel(host, chat, { chain, toolUseId, held, agents, stopAt }, 0);
  const content = outcome.ok ? outcome.content : outcome.error.message;
  const card = chat.session.toolCall(agent.parentToolUseId);
  if (card) chat.publish({ type: 'transcript_item', sessionId: host.chatId, item: { ...card, status: outcome.ok ? 'done' : 'error', result: content } });
  chat.session.appendUser([{ type: 'tool_result', tool_use_id: agent.parentToolUseId, content, ...(outcome.ok ? {} : { is_error: true }) }]);
}

/** What running a parked chain on needs: the chain, the answer's held call, the chat's sub-agents by their delegate call. */
interface Resume {
  chain: ParkedLevel[];
  toolUseId: string | undefined;
  held: Promise<HeldCallAnswer> | HeldCallAnswer;
  agents: ReadonlyMap<string, SubAgent>;
  /** The first level "Stop sub-agent" stopped (the chain's length: none). */
  stopAt: number;
}

/** One sub-agent of the chain run on from its logged history, inside the run of the one above it (`parent`). */
function resumeLevel(host: SubAgentHost, parent: RunContext, resume: Resume, at: number): Promise<ToolOutcome> {
  const { chain, toolUseId, held } = resume;
  const level = chain[at]!;
  // Its plan was dropped with the process: the snapshot has it.
  if (level.agent.plan) parent.plans.restore(agentKey(host.chatId, level.agent.id), level.agent.plan);
  // Its snapshots from here carry no lines: those gathered so far stay with the chat (withSnapshot);
  // nor "asking": the answer is in, and it runs on.
  const { transcript: _lines, asking: _asked, ...snapshot } = level.agent;
  const below = chain[at + 1];
  return supervise(host, parent, snapshot, level.readOnly, async (session, publish, run) => {
    session.restoreHistory(level.history);
    // The call it waited on, as its card was (not published: its line is on the card already),
    // so what becomes of the call updates that line rather than adding another.
    if (level.card) session.apply({ type: 'transcript_item', sessionId: session.summary.id, item: level.card });
    if (below) return goOnAbove(host, resume, at, session, publish, run);
    const settled = await held;
    if (at >= resume.stopAt) {
      // Stopped where it waited: its held call says so, as a live Stop leaves it (sub-agent-pauses.ts).
      settleHeld(session, toolUseId, settled, publish, NOT_RUN_STOPPED);
      return { status: 'stopped', text: finalText(session) };
    }
    const halt = settled.kind !== 'run' && settled.halt;
    settleHeld(session, toolUseId, settled, publish, halt ? ABORTED_RESULT : null);
    if (halt) return { status: 'failed', text: '', notice: 'The user aborted the plan while this sub-agent waited for them.' };
    return { approved: settled.kind === 'run' ? (toolUseId ?? null) : null };
  });
}

/**
 * A sub-agent above the waiting one: the one below runs on first, inside this one's run, and its
 * result answers the delegate call this one waited on. The other calls of that reply that had
 * ended before the restart get the results the log kept (`finished`); those still running were
 * cut off by the restart as a crash cuts them off (a sub-agent sibling's result says it was
 * interrupted, with its plan's state); then this one goes on asking Claude.
 */
async function goOnAbove(host: SubAgentHost, resume: Resume, at: number, session: ChatSession, publish: (event: WaypointEvent) => void, run: RunContext): Promise<{ approved: null } | Ended> {
  const level = resume.chain[at]!;
  const below = resume.chain[at + 1]!.agent;
  const outcome = await resumeLevel(host, run, resume, at + 1);
  const content = outcome.ok ? outcome.content : outcome.error.message;
  if (level.card) publish({ type: 'transcript_item', sessionId: session.summary.id, item: { ...level.card, status: outcome.ok ? 'done' : 'error', result: content } });
  session.appendUser(
    unansweredToolUses(session.history).map((id): ToolResultBlockParam => {
      if (id === below.parentToolUseId) return { type: 'tool_result', tool_use_id: id, content, ...(outcome.ok ? {} : { is_error: true }) };
      const ended = level.finished?.find((result) => result.tool_use_id === id);
      if (ended) return ended;
      const sibling = resume.agents.get(id);
      return { type: 'tool_result', tool_use_id: id, content: sibling ? interruptedResult(sibling.plan) : INTERRUPTED_RESULT, is_error: true };
    }),
  );
  if (run.signal.aborted) return { status: 'stopped', text: '' };
  // Stopped while one below it waited: it ends here, as the live Stop ends it.
  if (at >= resume.stopAt) return { status: 'stopped', text: finalText(session) };
  return { approved: null };
}

/** How a sub-agent's conversation starts: its history set, and the call approved to run first; or an end already. */
type Begin = (session: ChatSession, publish: (event: WaypointEvent) => void, run: RunContext) => Promise<{ approved: string | null } | Ended>;

/** A sub-agent from its start (or resumption) to its end: its snapshot, its Stop, its slot, its result. */
async function supervise(host: SubAgentHost, parent: RunContext, start: SubAgent, readOnly: boolean, begin: Begin): Promise<ToolOutcome> {
  const chatId = host.chatId;
  const { id, title, depth } = start;
  let record = start;
  const update = (change: Partial<SubAgent>) => {
    record = { ...record, ...change };
    host.publishChat({ type: 'subagent_updated', sessionId: chatId, subagent: record });
  };
  update({});

  // Stop of the chat reaches every sub-agent at once (the listener runs inside abort()); "Stop
  // sub-agent" aborts only this one and those below it.
  const controller = new AbortController();
  const onParentStop = () => controller.abort();
  if (parent.signal.aborted) controller.abort();
  else parent.signal.addEventListener('abort', onParentStop, { once: true });
  const untrack = host.track(id, controller);
  const key = agentKey(chatId, id);
  const planChanges = parent.plans.onPlanUpdated((u) => {
    if (u.sessionId !== key) return;
    // Its plan's changes are lines of its card, as the chat's are lines of the chat (its
    // session is no chat, so nothing else makes them).
    for (const item of planChangeItems(record.plan, u)) {
      const line = subAgentLine(item);
      if (line) host.publishChat({ type: 'subagent_line', sessionId: chatId, agentId: id, line });
    }
    update({ plan: u.plan });
    host.forward({ chatId, agent: { id, title, depth }, event: { type: 'plan_updated', sessionId: key, plan: u.plan, change: u.change } });
  });
  try {
    // Waiting for the person, shown or in line: its snapshot says so ("Needs you" for every one that waits).
    const asking = (on: boolean) => {
      const { asking: _was, ...rest } = record;
      record = on ? { ...rest, asking: true } : rest;
      host.publishChat({ type: 'subagent_updated', sessionId: chatId, subagent: record });
    };
    const spec = { id, title, depth, readOnly, key, call: start.parentToolUseId, asking };
    const work = runInSlot(parent, host, controller.signal, () => converse(parent, host, spec, controller.signal, begin));
    const ended = await (parent.agent ? parent.agent.waitFor(work) : work);
    const plan = parent.plans.getPlan(key) ?? record.plan;
    const result = resultText(ended, plan);
    update({ status: ended.status, plan, result });
    // A sub-agent the user stopped did what the user wanted: its result says so in words, not as
    // a tool error, which would send the step in progress through recovery to "needs your attention".
    return ended.status === 'done' || (ended.status === 'stopped' && !parent.signal.aborted) ? ok(result) : fail('unknown', result);
  } finally {
    planChanges.dispose();
    untrack();
    parent.signal.removeEventListener('abort', onParentStop);
    // Its snapshot keeps the plan; the plan service forgets it.
    parent.plans.drop(key);
  }
}

interface Ended {
  status: Exclude<SubAgent['status'], 'working' | 'interrupted'>;
  text: string;
  /** A notice that ended it (the turn limit, an API failure, the user aborting the plan). */
  notice?: string;
}

/** Waits for a slot of "Sub-agents at once" (or a Stop), and holds it while the sub-agent works. */
async function runInSlot(parent: RunContext, host: SubAgentHost, signal: AbortSignal, work: () => Promise<Ended>): Promise<Ended> {
  if (!(await host.slots.acquire(signal))) return { status: 'stopped', text: '' };
  try {
    return await work();
  } finally {
    host.slots.release();
  }
}

interface ChildSpec {
  id: string;
  title: string;
  depth: number;
  readOnly: boolean;
  key: string;
  /** The delegate call that started it, in its parent's history. */
  call: string;
  /** Marks its snapshot as waiting for the person (or no longer). */
  asking(on: boolean): void;
}

/** The sub-agent's own conversation: a session of its own, the parent's run context otherwise. */
async function converse(parent: RunContext, host: SubAgentHost, spec: ChildSpec, signal: AbortSignal, begin: Begin): Promise<Ended> {
  const now = nowIso();
  const workspace = parent.session.summary.workspace;
  const session = new ChatSession({ id: spec.key, title: spec.title, createdAt: now, updatedAt: now, ...(workspace ? { workspace } : {}) }, host.newItems());
  let notice: string | undefined;
  let held = 0;
  // The calls of its open reply that have ended, with their results (AgentFrame.callEnded).
  const finished = new EndedCalls(() => session.history);
  const frame: AgentFrame = {
    chatId: host.chatId,
    // The chat's own session is the tree's root: every sub-agent's spend is metered there.
    chatSummary: parent.agent?.chatSummary ?? (() => parent.session.summary),
    id: spec.id,
    title: spec.title,
    depth: spec.depth,
    readOnly: spec.readOnly,
    async waitFor(work) {
      // Its slot goes to its own sub-agents while it waits for them (one slot cannot deadlock a tree).
      if (held++ === 0) host.slots.release();
      try {
        return await work;
      } finally {
        if (--held === 0) await host.slots.acquire(new AbortController().signal);
      }
    },
    waitingOn(call) {
      const card = session.toolCall(call);
      const done = finished.stillOpen(call);
      const self = {
        agentId: spec.id,
        readOnly: spec.readOnly,
        ...(card ? { card } : {}),
        history: structuredClone(session.history) as WaitingParent['history'],
        ...(done.length ? { finished: done as WaitingParent['finished'] } : {}),
      };
      return [self, ...(parent.agent?.waitingOn(spec.call) ?? [])];
    },
    callEnded(result) {
      finished.add(result);
      host.pauses.callEnded(spec.id);
    },
  };
  const tag = { id: spec.id, title: spec.title, depth: spec.depth };
  // Its card's lines go out on the chat as they happen (and into the chat's log, each once).
  const sent = new Map<string, string>();
  const publish = (event: WaypointEvent) => {
    session.apply(event);
    host.forward({ chatId: host.chatId, agent: tag, event });
    const line = event.type === 'transcript_item' ? subAgentLine(event.item) : null;
    const said = line && JSON.stringify(line);
    if (line && said !== sent.get(line.id!)) {
      sent.set(line.id!, said!);
      host.publishChat({ type: 'subagent_line', sessionId: host.chatId, agentId: spec.id, line });
    }
    if (event.type === 'transcript_item' && event.item.kind === 'notice' && event.item.level !== 'info') notice = event.item.text;
  };
  const run: RunContext = {
    ...parent,
    session,
    signal,
    approved: null,
    agent: frame,
    subAgents: host,
    publish,
    // Its spend is the chat's: recorded on the chat (and its plan step) like the chat's own requests;
    // the context meter stays the chat's.
    onUsage: (usage, model) => parent.onUsage(usage, model),
  };
  const begun = await begin(session, publish, run);
  if ('status' in begun) return begun;
  let approved = begun.approved;
  let ending: Awaited<ReturnType<typeof runChat>>;
  for (;;) {
    ending = await runChat({ ...run, approved });
    if (typeof ending !== 'object' || ending.paused.budgetOfChat) break;
    // A question for the user: the chat asks it, labelled with this sub-agent; meanwhile its slot
    // goes to its siblings (they go on), and it runs on from its history once answered.
    spec.asking(true);
    const after = await frame.waitFor(host.pauses.ask(tag, session, publish, ending.paused, signal, spec.readOnly, () => parent.agent?.waitingOn(spec.call) ?? []));
    spec.asking(false);
    if (after.kind === 'stopped') return { status: 'stopped', text: finalText(session) };
    if (after.kind === 'halted') return { status: 'failed', text: finalText(session), notice: 'The user aborted the plan while this sub-agent waited for them.' };
    approved = after.approved;
  }
  const text = finalText(session);
  if (signal.aborted) return { status: 'stopped', text };
  if (ending === 'turn_limit') {
    const limit = parent.settings().maxModelTurns;
    return { status: 'failed', text, notice: `The sub-agent used ${limit} model turns (the "Max model turns" setting) and was ended before it finished.` };
  }
  if (typeof ending === 'object' && ending.paused.budgetOfChat) {
    const stop = ending.paused.events.find((e) => e.type === 'transcript_item' && e.item.kind === 'notice');
    return { status: 'failed', text, notice: stop?.type === 'transcript_item' && stop.item.kind === 'notice' ? stop.item.text : "The chat's plan reached its budget." };
  }
  if (notice && session.history.at(-1)?.role !== 'assistant') return { status: 'failed', text, notice };
  return { status: 'done', text };
}

/** What the delegate call returns. */
function resultText(ended: Ended, plan: Plan | null): string {
  if (ended.status === 'stopped') return [stoppedResult(plan), ended.text && `Its last words: ${ended.text}`].filter(Boolean).join('\n\n');
  const parts = [ended.notice, ended.text || (ended.status === 'done' ? 'The sub-agent finished without a final answer.' : '')];
  if (plan?.completion) parts.push(`Plan completion (${plan.completion.status}): ${plan.completion.summary}`);
  else if (plan) parts.push(planStateText(plan));
  return parts.filter(Boolean).join('\n\n');
}

/** The text of the sub-agent's last reply. */
function finalText(session: ChatSession): string {
  const last = session.history.findLast((m) => m.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content.trim();
  return last.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n')
    .trim();
}

function stepInProgress(plan: Plan | null): number | null {
  return plan?.steps.find((s) => s.status === 'in_progress')?.id ?? null;
}

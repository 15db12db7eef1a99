import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ContentBlockParam, Message, MessageCreateParamsBase, ToolResultBlockParam, ToolUseBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ApprovalRule } from '../../../shared/approval-rules';
import type { WaypointEvent } from '../../../shared/contract';
import type { Settings } from '../../../shared/settings';
import type { ContextUse, RunState, ToolCallItem } from '../../../shared/transcript';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import { describeFailure } from '../model/api-error-map';
import type { ApiRetryPolicy } from '../model/api-retry-policy';
import { buildRequest, toolsForTurn } from '../model/request-builder';
import { fitRequest, type FitOutcome } from '../context/context-fit';
import { calibrate, inputTokensOf } from '../context/context-measure';
import type { ModelLimits } from '../model/model-catalog';
import type { ChatSession } from '../../chats/chat-session';
import { requestModelTurn } from '../model/model-turn';
import { ReplyItem } from './reply-item';
import { PlanReminder } from '../prompts/plan-reminder';
import { createApprover } from '../pauses/approval-step';
import { questionPause } from '../pauses/question-step';
import type { Pause } from '../pauses/pause-kind';
import { unansweredToolUses } from '../../chats/api-history';
import { callKey } from '../../../shared/tool-results';
import type { ToolDefinition, UserQuestion } from '../../tools/tool';
import { runToolUses } from './tool-executor';
import { ABORTED_RESULT } from '../../recovery/escalation-answer';
import { afterThisTurn } from '../../common/wait';
import type { ToolRegistry } from '../../tools/tool-registry';
import { noticeItem } from '../../common/transcript-items';
import type { LoopRecovery, RequestAttachments } from '../ports';
import { ReplyThinking } from './reply-thinking';
import { builtInThinking } from '../model/model-catalog';
import { thinkingFields, thinkingThisTurn } from '../model/thinking-params';
import { thinkingPrefixesOf } from '../model/thinking-prefix';
import { deliverEditNotes } from '../prompts/edit-notes';
import { heldForApproval, planFirstNote, planFirstRefusal } from '../plan-hooks/plan-first';
import { checkGoalIfDue } from '../plan-hooks/goal-check';
import type { UsageRecord } from '../../store/chat-log-ports';
import { checkPlanBudget } from '../plan-hooks/budget-gate';
import { stepCallTracker } from './step-call-tracker';
import { turnOf } from '../../recovery/turn-checkpoints';
import type { ModelThinking } from '../../../shared/thinking';
import type { ProjectTurn } from '../prompts/project-context';
import type { AgentFrame, SubAgentPort } from './agent-frame';
import { DELEGATE } from '../../tools/delegate';
import { offeredTo } from './agent-tools';
import { citedSources, SearchCards } from './web-search-cards';

const STOPPED_RESULT = 'The user pressed Stop before this tool ran or finished.';

/** Everything one run needs, built once when it starts (run-controller.ts). */
export interface RunContext {
  session: ChatSession;
  client: Anthropic;
  apiKey: string;
  settings: () => Settings;
  plans: PlanServiceApi;
  registry: ToolRegistry;
  workspace: string | null;
  stallTimeoutMs: number;
  /** The loop's own retries of API faults (see api-retry-policy.ts). */
  retryPolicy: ApiRetryPolicy;
  /** The user's Stop. */
  signal: AbortSignal;
  /**
   * The held call the user approved (by the one answer path, prompt-answers.ts) after the run
   * that asked ended: this run runs it first, unasked; null when no approval started the run.
   */
  approved: string | null;
  /** The approval rules in force now (Settings' and the chat's). */
  rules(): ApprovalRule[];
  /** Recovery hints, checkpoints and escalations (src/main/recovery). */
  recovery: LoopRecovery;
  /**
   * Each successful request's usage, for the chat's running cost (usage-meter.ts); with the
   * context meter's new reading when the request was the chat's own (not a summary request);
   * `step` names the plan step it is counted on when not the one in progress (the goal check).
   */
  onUsage(usage: Usage, model: string, context?: ContextUse, step?: UsageRecord['step']): void;
  /** The chosen model's context window and output cap (model-facts.ts). */
  limitsFor(model: string): Promise<ModelLimits>;
  /** Applies and emits an event. */
  publish(event: WaypointEvent): void;
  /** Attached files and tools' images: filled into each request (attachments/attachment-service.ts). */
  attachments: RequestAttachments;
  /** What extended thinking the model takes (model-facts.ts: the Models API, else Waypoint's table). */
  thinkingFor(model: string): Promise<ModelThinking>;
  /** The workspace is a worktree still being checked out: tool calls wait for it (tool-executor.ts). */
  workspaceReady?(): Promise<string | null> | null;
  /** The workspace's instructions and skills for this turn, read fresh (prompts/project-context.ts); none when absent. */
  project?(settings: Settings): Promise<ProjectTurn>;
  /** The sub-agent this run is (sub-agents.ts); absent for the chat's own run. */
  agent?: AgentFrame;
  /** The chat's sub-agents: the delegate tool comes from here (absent: no delegate, e.g. "Compact now"). */
  subAgents?: SubAgentPort<RunContext>;
}

const NO_PROJECT: ProjectTurn = { prompt: '', tools: [] };

/** This turn's project instructions and skills: read per request, so an edit on disk applies from the next one. */
export const projectFor = (deps: Pick<RunContext, 'project'>, settings: Settings): Promise<ProjectTurn> => deps.project?.(settings) ?? Promise.resolve(NO_PROJECT);

/**
 * How a run ended when the caller must know: 'turn_limit' — the "Max model turns" setting cut a
 * tool loop short, so the turn is over for the user although the history ends with tool results;
 * `paused` — it reached a question for a person: the chat awaits the answer once these events are
 * out (published after the run ended, run-controller.ts), and nothing of this run waits for it.
 */
export type RunEnding = 'turn_limit' | { paused: Pause };

/**
 * One run: model turn, tools, model turn … until Claude stops asking for tools, the user stops,
 * or the API fails beyond the retry budget (transient faults are retried in model-turn.ts).
 * Never throws for API or tool failures: they end the run with a notice, and the history is
 * left valid for the next message or for retryRun.
 */
export async function runConversation(deps: RunContext): Promise<RunEnding | void> {
  const { session, signal } = deps;
  const sessionId = session.summary.id;
  const setState = (state: RunState) => deps.publish({ type: 'run_state', sessionId, state });
  const reminder = new PlanReminder();
  // A runaway tool loop ends at the user's limit with a notice rather than spending their money forever.
  const maxTurns = deps.settings().maxModelTurns;
  const delegate = deps.subAgents?.delegateFor(deps) ?? null;
  // The chat's plan decides plan first for its sub-agents too (their own plans are theirs).
  const chatId = deps.agent?.chatId ?? sessionId;
  // A run after an answer first finishes the calls the question left open, in Claude's order (the
  // held one first): the same executor and hooks as any call, and it may pause again.
  const open = openToolUses(session);
  if (open.length) {
    const settings = deps.settings();
    const project = await projectFor(deps, settings);
    const tools = offeredTo(deps.agent, settings, toolsForTurn(settings, deps.plans.dialectFor(sessionId, settings.planningStyle), deps.plans, deps.registry, project.tools), delegate);
    const end = await toolBatch(deps, open, settings, withDelegate(tools, delegate), null, reminder);
    if (end !== 'next') return end === 'end' ? undefined : end;
  }

  for (let turn = 0; turn < maxTurns; turn++) {
    const settings = deps.settings();
    const dialect = deps.plans.dialectFor(sessionId, settings.planningStyle);
    const project = await projectFor(deps, settings);
    const tools = offeredTo(deps.agent, settings, toolsForTurn(settings, dialect, deps.plans, deps.registry, project.tools), delegate);
    // The user's plan edits since Claude last heard of them ride at the end of this request.
    deliverEditNotes(session, deps.plans.getPlan(sessionId));
    const held = heldForApproval(settings, deps.plans.getPlan(chatId));
    const note = held ? planFirstNote(dialect) : undefined;
    const limits = await deps.limitsFor(settings.model);
    // Extended thinking from the next user turn on; a tool loop keeps what its turn began with (thinking-params.ts).
    const thinks = thinkingThisTurn(session.history, settings.extendedThinking);
    const support = thinks ? await deps.thinkingFor(settings.model) : builtInThinking(settings.model);
    const built = buildRequest({
      settings,
      dialect,
      plans: deps.plans,
      tools,
      workspace: deps.workspace,
      history: session.history,
      planFirstNote: note,
      maxOutputTokens: limits.maxOutputTokens,
      projectPrompt: project.prompt,
    });
    // max_tokens within the model's cap, and above the thinking budget when thinking is on (thinking-params.ts).
    const base = { ...built, ...thinkingFields(settings, support, thinks, limits.maxOutputTokens) };
    // Measured against the model's window, compacted first when it would not fit (context-fit.ts).
    const fitted = await fitRequest(base, { ...contextDeps(deps, limits, setState), admit: (model, tokens) => checkPlanBudget(deps, model, tokens) });
    if (fitted.kind === 'budget') return { paused: fitted.pause };
    if (fitted.kind !== 'ready') return endUnfitted(fitted, deps, limits, base.model);
    // The plan's budget: a request that would pass it is not sent; the run pauses (budget-gate.ts).
    const overBudget = checkPlanBudget(deps, fitted.request.model, fitted.measured.tokens);
    if (overBudget) return { paused: overBudget };
    // Attached files and tools' images travel as references; only the request sent carries their bytes.
    const resolved = await deps.attachments.resolve(fitted.request);
    // Thinking whose prefix changed since Claude produced it (tools, system, a compaction, a shortened message) stays out.
    const prefixes = thinkingPrefixesOf(session);
    const request = prefixes.keepValid(resolved);

    const reply = new ReplyItem(sessionId, { publish: deps.publish, current: (id) => session.item(id) });
    const thinking = new ReplyThinking(sessionId, { publish: deps.publish, current: (id) => session.item(id) });
    // The API runs the reply's web searches; each shows as a card while the reply streams.
    const searches = new SearchCards((card) => deps.publish({ type: 'transcript_item', sessionId, item: card }));
    const outcome = await requestModelTurn(request, {
      client: deps.client,
      signal,
      stallTimeoutMs: deps.stallTimeoutMs,
      retryPolicy: deps.retryPolicy,
      setState,
      reply,
      thinking,
      onBlock: (block) => searches.block(block),
    });
    searches.finish();
    if (outcome.kind === 'stopped') {
      // A Stop mid-stream keeps what the user saw; a Stop during a backoff wait keeps nothing of the failed attempt.
      // Unsigned thinking cannot go back to the API: the history keeps only the text.
      session.appendAssistant([{ type: 'text', text: reply.liveText() }]);
      thinking.finish('stopped');
      reply.finish('stopped', null);
      return;
    }
    if (outcome.kind === 'failed') {
      // Nothing of a failed attempt enters the history: the user's message stays last, so retryRun can resend it.
      thinking.finish('error');
      reply.finish('error', null);
      const failure = describeFailure(outcome.error, deps.apiKey, outcome.retries);
      deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('error', failure.text, failure.code) });
      return;
    }
    prefixes.remember(request, outcome.message.content);
    deps.onUsage(outcome.message.usage, outcome.message.model, noteContext(deps, request.model, fitted.measured.estimate, outcome.message.usage, limits));
    const content: ContentBlock[] = outcome.message.content;
    const stopReason = outcome.message.stop_reason;

    session.appendAssistant(content.flatMap(toParam));
    thinking.finish('done');
    reply.finish('done', stopReason, citedSources(content));
    if (stopReason === 'max_tokens') {
      const text = `Claude's reply reached the ${request.max_tokens.toLocaleString('en-US')}-token limit and was cut off. Raise "Max tokens" in Settings, or ask Claude to continue.`;
      deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('warning', text, 'max_tokens') });
    }
    // The API paused a long turn of server tools (web search): the reply just kept ends the
    // history, and sending it back as it is lets Claude go on from there; one more model turn.
    if (stopReason === 'pause_turn') continue;
    const toolUses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (toolUses.length === 0) {
      // Claude's turn ended: a plan that completed is checked against its goal (once per
      // completion); not met, it reopens with "Fix: …" steps and Claude carries on. Only the
      // chat's plan: a sub-agent's result goes to its parent, whose own plan is what is checked.
      if (deps.agent) return;
      const check = await checkGoalIfDue({
        session,
        client: deps.client,
        apiKey: deps.apiKey,
        signal,
        plans: deps.plans,
        rounds: settings.goalChecks,
        model: settings.model,
        maxOutputTokens: limits.maxOutputTokens,
        retryPolicy: deps.retryPolicy,
        stallTimeoutMs: deps.stallTimeoutMs,
        setState,
        onUsage: (usage, model, step) => deps.onUsage(usage, model, undefined, step),
      });
      if (check === 'carry_on') continue;
      return;
    }

    // A delegate call beyond "Sub-agent depth" (not offered) still reaches the tool, which says why.
    const end = await toolBatch(deps, toolUses, settings, withDelegate(tools, delegate), outcome.message, reminder);
    if (end !== 'next') return end === 'end' ? undefined : end;
  }
  const text = `Claude used ${maxTurns} model turns in one go (the "Max model turns" setting), so Waypoint paused it. Press "Continue", or send a message, to let it go on.`;
  deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('warning', text, 'turn_limit') });
  return 'turn_limit';
}

/**
 * One batch of tool calls, run in order by the executor: their results go into the history, and
 * 'next' asks Claude again. 'end': Stop, or the user aborted the plan. A question for a person
 * ends the run: the results so far are kept, the rest wait for the answer.
 */
async function toolBatch(
  deps: RunContext,
  toolUses: ToolUseBlock[],
  settings: Settings,
  tools: ToolDefinition[],
  message: Message | null,
  reminder: PlanReminder,
): Promise<'next' | 'end' | { paused: Pause }> {
  const { session, signal } = deps;
  const sessionId = session.summary.id;
  deps.publish({ type: 'run_state', sessionId, state: { status: 'running', phase: 'tools' } });
  const results: ToolResultBlockParam[] = [];
  const approved = deps.approved !== null && toolUses.some((b) => b.id === deps.approved) ? { toolUseId: deps.approved, card: session.toolCall(deps.approved) } : null;
  // A call cut off before (its effect unknown) asks again, whatever the rules say (interrupted-calls).
  const repeated = (block: ToolUseBlock) => session.summary.interruptedCalls?.includes(callKey(block.name, block.input)) ?? false;
  const approver = createApprover({ sessionId, settings, rules: () => deps.rules(), repeated });
  const end = await runToolUses(
    toolUses,
    {
      sessionId,
      signal,
      settings,
      tools,
      showCard: (card: ToolCallItem) => deps.publish({ type: 'transcript_item', sessionId, item: card }),
      ...(deps.workspaceReady ? { workspaceReady: deps.workspaceReady } : {}),
      // A sub-agent asks as the chat does: its run ends at the question (sub-agent-pauses.ts puts it to the user).
      approve: approver,
      approved,
      ask: (toolUseId: string, question: UserQuestion) => questionPause(sessionId, toolUseId, question),
      // Its turn (the user message it answers) keys the file checkpoints Edit message puts back; an
      // approved call run at the start of the next run still belongs to that message.
      // A sub-agent's commands change its parent chat's folder: they are in that chat's Changes.
      recovery: deps.recovery.hooksFor({ sessionId, signal, settings, workspace: deps.workspace, turn: turnOf(session), chatId: deps.agent?.chatId ?? sessionId }),
      storeImages: (toolName, images) => deps.attachments.fromTool(toolName, images),
      // Plan first: changing tools wait for the user's approval (checked per call: a proposal may come mid-turn).
      refuse: (tool) => {
        const plan = deps.plans.getPlan(deps.agent?.chatId ?? sessionId);
        return planFirstRefusal(tool, heldForApproval(settings, plan), plan);
      },
      track: stepCallTracker(deps.plans, sessionId, message, toolUses.filter((b) => tools.find((t) => t.name === b.name)?.group !== 'planning').length),
      // Each result as its call ends, for the log of a sub-agent of this reply that waits for the user.
      ended: (result: ToolResultBlockParam) => (deps.agent ? deps.agent.callEnded(result) : deps.subAgents?.chatCallEnded(result)),
    },
    results,
  );
  if (end.kind === 'paused') {
    // What ran before the question is on record now; the run after the answer goes on from there.
    session.appendUser(results);
    return { paused: end.pause };
  }
  // The tool batch's plan changes are folded in the event pump until the end of this turn of
  // the event loop, and everything from here to the next request runs without giving it one:
  // let them go out now, so the panel does not wait for the next request to be built.
  await afterThisTurn();
  const nudge = reminder.afterTools(toolUses.map((t) => t.name), tools, deps.plans.getPlan(sessionId));
  session.appendUser(nudge && !signal.aborted ? [...results, { type: 'text', text: nudge }] : results);
  if (signal.aborted) {
    session.closeOpenToolUses(STOPPED_RESULT);
    return 'end';
  }
  if (end.kind === 'halted') {
    // The user aborted the plan: answer what did not run, and send nothing more until they write.
    session.closeOpenToolUses(ABORTED_RESULT);
    return 'end';
  }
  return 'next';
}

/** The executor's tools: delegate too when it was not offered, so a call gets the reason, not "unknown tool". */
function withDelegate(tools: ToolDefinition[], delegate: ToolDefinition | null): ToolDefinition[] {
  return delegate && !tools.some((t) => t.name === DELEGATE) ? [...tools, delegate] : tools;
}

/** The tool calls of Claude's last message that have no result yet, in its order. */
function openToolUses(session: ChatSession): ToolUseBlock[] {
  const open = new Set(unansweredToolUses(session.history));
  if (open.size === 0) return [];
  const assistant = session.history.findLast((m) => m.role === 'assistant');
  if (!assistant || typeof assistant.content === 'string') return [];
  // The history keeps what the executor reads of a call (id, name, input) as the API sent it.
  return assistant.content.filter((b) => b.type === 'tool_use' && open.has(b.id)) as ToolUseBlock[];
}

/** What measuring and compacting need of the run. */
export function contextDeps(deps: RunContext, limits: ModelLimits, setState: (state: RunState) => void) {
  const { attachments } = deps;
  return {
    session: deps.session,
    client: deps.client,
    signal: deps.signal,
    limits,
    plan: deps.plans.getPlan(deps.session.summary.id),
    retryPolicy: deps.retryPolicy,
    stallTimeoutMs: deps.stallTimeoutMs,
    setState,
    publish: deps.publish,
    onUsage: (usage: Usage, model: string) => deps.onUsage(usage, model),
    // Summary requests and token counts carry the attached files too (the history holds references).
    resolve: (request: MessageCreateParamsBase) => attachments.resolve(request),
  };
}

/** A request that could not be made to fit: the run ends with a notice, and nothing was sent. */
function endUnfitted(outcome: Exclude<FitOutcome, { kind: 'ready' | 'budget' }>, deps: RunContext, limits: ModelLimits, model: string): void {
  const sessionId = deps.session.summary.id;
  if (outcome.kind === 'stopped') return;
  if (outcome.kind === 'failed') {
    const failure = describeFailure(outcome.error, deps.apiKey, outcome.retries);
    const text = `Waypoint had to compact this chat to fit ${model}'s context window, and the summary request failed. ${failure.text}`;
    deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('error', text, failure.code) });
    return;
  }
  const text = `This turn alone is too long for ${model}'s context window (about ${outcome.tokens.toLocaleString('en-US')} tokens; ${limits.contextWindow.toLocaleString('en-US')} in all, ${outcome.budget.toLocaleString('en-US')} of them for the input), even with older turns compacted and tool results shortened, so nothing was sent. Shorten your message, or choose a model with a larger window in Settings.`;
  deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('error', text, 'context_too_long') });
}

/** A reply's usage calibrates the next measure; returns how full the window is now, for the context meter. */
function noteContext(deps: RunContext, model: string, estimate: number, usage: Usage, limits: ModelLimits): ContextUse {
  const input = inputTokensOf(usage);
  calibrate(deps.session, model, estimate, input);
  return { tokens: input + usage.output_tokens, window: limits.contextWindow };
}

/**
 * What goes back into the history: text (with its citations), tool_use, thinking blocks and the
 * web search's server_tool_use / web_search_tool_result exactly as received, signatures and
 * encrypted parts included (the API refuses a tool loop whose thinking was dropped or changed,
 * and search blocks that were changed or split).
 */
function toParam(block: ContentBlock): ContentBlockParam[] {
  if (block.type === 'text') return [block.citations?.length ? { type: 'text', text: block.text, citations: structuredClone(block.citations) } : { type: 'text', text: block.text }];
  if (block.type === 'server_tool_use') return [{ type: 'server_tool_use', id: block.id, name: block.name, input: structuredClone(block.input), ...(block.caller ? { caller: block.caller } : {}) }];
  if (block.type === 'web_search_tool_result') return [{ type: 'web_search_tool_result', tool_use_id: block.tool_use_id, content: structuredClone(block.content), ...(block.caller ? { caller: block.caller } : {}) }];
  if (block.type === 'tool_use') return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
  if (block.type === 'thinking') return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
  if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: block.data }];
  return [];
}

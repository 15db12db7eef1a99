import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ContentBlockParam, ToolResultBlockParam, ToolUseBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { Settings } from '../../shared/settings';
import type { RunState, ToolCallItem } from '../../shared/transcript';
import type { PlanServiceApi } from '../plan/plan-service.types';
import { describeFailure } from './api-error-map';
import type { ApiRetryPolicy } from './api-retry-policy';
import { appendAssistant, appendUser, closeOpenToolUses } from './history';
import { buildRequest, toolsForTurn } from './request-builder';
import { noteContextUsage, prepareRequest } from './context-limits';
import type { ChatSession } from './session-state';
import { requestModelTurn } from './model-turn';
import { ReplyItem } from './reply-item';
import { PlanReminder } from './plan-reminder';
import type { ApprovalGate } from './approval-gate';
import { createApprover } from './approval-step';
import { runToolUses } from './tool-executor';
import { ABORTED_RESULT } from '../recovery/escalation-answer';
import type { RecoveryService } from '../recovery/recovery-service';
import type { ToolRegistry } from './tool-registry';
import { noticeItem } from './transcript-items';

/** A runaway tool loop ends here with a notice rather than spending the user's money forever. */
export const MAX_MODEL_TURNS = 50;
const STOPPED_RESULT = 'The user pressed Stop before this tool ran or finished.';

export interface RunDeps {
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
  /** Pending approvals of risky tool calls; without it tools run unasked (tests of other parts). */
  approvals?: ApprovalGate;
  /** Recovery hints, checkpoints and escalations (src/main/recovery); absent in tests of other parts. */
  recovery?: RecoveryService;
  /** Each successful request's usage, for the chat's running cost (usage-meter.ts). */
  onUsage?(usage: Usage, model: string): void;
  /** Applies and emits an event (pending deltas go first). */
  publish(event: WaypointEvent): void;
  /** Queues text for the batched message_delta events. */
  pushDelta(itemId: string, text: string): void;
  /** Emits queued deltas now. */
  flushDeltas(): void;
}

/**
 * One run: model turn, tools, model turn … until Claude stops asking for tools, the user stops,
 * or the API fails beyond the retry budget (transient faults are retried in model-turn.ts).
 * Never throws for API or tool failures: they end the run with a notice, and the history is
 * left valid for the next message or for retryRun.
 */
export async function runConversation(deps: RunDeps): Promise<void> {
  const { session, signal } = deps;
  const sessionId = session.summary.id;
  const setState = (state: RunState) => deps.publish({ type: 'run_state', sessionId, state });
  const reminder = new PlanReminder();

  for (let turn = 0; turn < MAX_MODEL_TURNS; turn++) {
    const settings = deps.settings();
    const dialect = deps.plans.dialectFor(sessionId, settings.planningStyle);
    const tools = toolsForTurn(settings, dialect, deps.plans, deps.registry);
    // Cache breakpoints, and old tool results shortened near the context limit (context-limits.ts).
    const request = prepareRequest(buildRequest({ settings, dialect, plans: deps.plans, tools, workspace: deps.workspace, history: session.history }), {
      session,
      plan: deps.plans.getPlan(sessionId),
      publish: deps.publish,
    });

    const reply = new ReplyItem(sessionId, {
      publish: deps.publish,
      pushDelta: deps.pushDelta,
      flushDeltas: deps.flushDeltas,
      current: (id) => session.item(id),
    });
    const outcome = await requestModelTurn(request, {
      client: deps.client,
      signal,
      stallTimeoutMs: deps.stallTimeoutMs,
      retryPolicy: deps.retryPolicy,
      setState,
      reply,
    });
    if (outcome.kind === 'stopped') {
      // A Stop mid-stream keeps what the user saw; a Stop during a backoff wait keeps nothing of the failed attempt.
      appendAssistant(session.history, [{ type: 'text', text: reply.liveText() }]);
      reply.finish('stopped', null);
      return;
    }
    if (outcome.kind === 'failed') {
      // Nothing of a failed attempt enters the history: the user's message stays last, so retryRun can resend it.
      reply.finish('error', null);
      const failure = describeFailure(outcome.error, deps.apiKey, outcome.retries);
      deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('error', failure.text, failure.code) });
      return;
    }
    noteContextUsage(session, outcome.message.usage);
    deps.onUsage?.(outcome.message.usage, outcome.message.model);
    const content: ContentBlock[] = outcome.message.content;
    const stopReason = outcome.message.stop_reason;

    appendAssistant(session.history, content.flatMap(toParam));
    reply.finish('done', stopReason);
    if (stopReason === 'max_tokens') {
      const text = `Claude's reply reached the ${settings.maxTokens.toLocaleString('en-US')}-token limit and was cut off. Raise "Max tokens" in Settings, or ask Claude to continue.`;
      deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('warning', text, 'max_tokens') });
    }
    const toolUses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (toolUses.length === 0) return;

    setState({ status: 'running', phase: 'tools' });
    const results: ToolResultBlockParam[] = [];
    const end = await runToolUses(
      toolUses,
      {
        sessionId,
        signal,
        settings,
        tools,
        showCard: (card: ToolCallItem) => deps.publish({ type: 'transcript_item', sessionId, item: card }),
        ...(deps.approvals ? { approve: createApprover({ gate: deps.approvals, sessionId, signal, settings, publish: deps.publish }) } : {}),
        ...(deps.recovery ? { recovery: deps.recovery.hooksFor({ sessionId, signal, settings, workspace: deps.workspace, publish: deps.publish }) } : {}),
      },
      results,
    );
    const nudge = reminder.afterTools(toolUses.map((t) => t.name), tools, deps.plans.getPlan(sessionId));
    appendUser(session.history, nudge && !signal.aborted ? [...results, { type: 'text', text: nudge }] : results);
    if (signal.aborted) {
      closeOpenToolUses(session.history, STOPPED_RESULT);
      return;
    }
    if (end === 'halted') {
      // The user aborted the plan: answer what did not run, and send nothing more until they write.
      closeOpenToolUses(session.history, ABORTED_RESULT);
      return;
    }
  }
  const text = `Claude used ${MAX_MODEL_TURNS} model turns in one go, so Waypoint paused it. Send a message to let it continue.`;
  deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('warning', text, 'turn_limit') });
}

/** Only text and tool_use go back into the history; nothing else is requested. */
function toParam(block: ContentBlock): ContentBlockParam[] {
  if (block.type === 'text') return [{ type: 'text', text: block.text }];
  if (block.type === 'tool_use') return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
  return [];
}

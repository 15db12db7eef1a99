import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ContentBlockParam, ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { Settings } from '../../shared/settings';
import type { AssistantItem, RunState, ToolCallItem } from '../../shared/transcript';
import type { PlanServiceApi } from '../plan/plan-service.types';
import { describeFailure } from './api-error-map';
import { appendAssistant, appendUser, closeOpenToolUses } from './history';
import { buildRequest, toolsForTurn } from './request-builder';
import type { ChatSession } from './session-state';
import { streamTurn } from './stream-turn';
import { runToolUses } from './tool-executor';
import type { ToolRegistry } from './tool-registry';
import { assistantItem, noticeItem } from './transcript-items';

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
  sdkMaxRetries: number;
  /** The user's Stop. */
  signal: AbortSignal;
  /** Applies and emits an event (pending deltas go first). */
  publish(event: WaypointEvent): void;
  /** Queues text for the batched message_delta events. */
  pushDelta(itemId: string, text: string): void;
  /** Emits queued deltas now. */
  flushDeltas(): void;
}

/**
 * One run: model turn, tools, model turn … until Claude stops asking for tools, the user stops,
 * or the API fails. Never throws for API or tool failures: they end the run with a notice, and
 * the history is left valid for the next message.
 */
export async function runConversation(deps: RunDeps): Promise<void> {
  const { session, signal } = deps;
  const sessionId = session.summary.id;
  const setState = (state: RunState) => deps.publish({ type: 'run_state', sessionId, state });

  for (let turn = 0; turn < MAX_MODEL_TURNS; turn++) {
    const settings = deps.settings();
    const dialect = deps.plans.dialectFor(sessionId, settings.planningStyle);
    const tools = toolsForTurn(settings, dialect, deps.plans, deps.registry);
    const request = buildRequest({ settings, dialect, plans: deps.plans, tools, workspace: deps.workspace, history: session.history });

    setState({ status: 'running', phase: 'requesting' });
    let item: AssistantItem | null = null;
    let partial = '';
    let content: ContentBlock[];
    let stopReason: string | null;
    try {
      const message = await streamTurn(deps.client, request, {
        signal,
        stallTimeoutMs: deps.stallTimeoutMs,
        onConnected: () => setState({ status: 'running', phase: 'streaming' }),
        onText: (delta) => {
          if (!item) {
            item = assistantItem();
            deps.publish({ type: 'transcript_item', sessionId, item });
          }
          partial += delta;
          deps.pushDelta(item.id, delta);
        },
      });
      content = message.content;
      stopReason = message.stop_reason;
    } catch (error) {
      // What the user saw stays, in the transcript and in the history Claude sees next time.
      appendAssistant(session.history, [{ type: 'text', text: partial }]);
      finishItem(deps, item, signal.aborted ? 'stopped' : 'error', null);
      if (signal.aborted) return;
      const failure = describeFailure(error, deps.apiKey, deps.sdkMaxRetries);
      deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('error', failure.text, failure.code) });
      return;
    }

    appendAssistant(session.history, content.flatMap(toParam));
    finishItem(deps, item, 'done', stopReason);
    if (stopReason === 'max_tokens') {
      const text = `Claude's reply reached the ${settings.maxTokens.toLocaleString('en-US')}-token limit and was cut off. Raise "Max tokens" in Settings, or ask Claude to continue.`;
      deps.publish({ type: 'transcript_item', sessionId, item: noticeItem('warning', text, 'max_tokens') });
    }
    const toolUses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (toolUses.length === 0) return;

    setState({ status: 'running', phase: 'tools' });
    const results: ToolResultBlockParam[] = [];
    await runToolUses(
      toolUses,
      {
        sessionId,
        signal,
        settings,
        tools,
        showCard: (card: ToolCallItem) => deps.publish({ type: 'transcript_item', sessionId, item: card }),
      },
      results,
    );
    appendUser(session.history, results);
    if (signal.aborted) {
      closeOpenToolUses(session.history, STOPPED_RESULT);
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

function finishItem(deps: RunDeps, item: AssistantItem | null, status: AssistantItem['status'], stopReason: string | null): void {
  if (!item) return;
  const sessionId = deps.session.summary.id;
  deps.flushDeltas();
  const current = deps.session.item(item.id);
  const text = current?.kind === 'assistant' ? current.text : '';
  deps.publish({ type: 'transcript_item', sessionId, item: { ...item, text, status } });
  deps.publish({ type: 'message_done', sessionId, itemId: item.id, stopReason });
}

import type { ContentBlockParam, MessageCreateParamsBase, MessageParam, ToolResultBlockParam, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { addCacheBreakpoints } from './cache-control';
import type { ChatSession } from './session-state';
import { noticeItem } from './transcript-items';

/** Every current Claude model has (at least) a 200k-token context window. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
/** Start shortening when the request would fill this much of the window (room for the reply). */
const HIGH_WATER = 0.8;
/** The newest messages always go whole: Claude is working on them. */
const KEEP_RECENT_MESSAGES = 6;
/** Old tool results longer than this are cut to their first KEEP_CHARS. */
const SHORTEN_OVER_CHARS = 600;
const KEEP_CHARS = 300;

interface ContextState {
  /** Tokens of the last request (input + cache read + cache write + output). */
  lastTokens: number;
  /** Messages before this index have their long tool results shortened in requests. */
  cut: number;
}
const states = new WeakMap<ChatSession, ContextState>();

function stateOf(session: ChatSession): ContextState {
  let state = states.get(session);
  if (!state) states.set(session, (state = { lastTokens: 0, cut: 0 }));
  return state;
}

/** Remembers how big the last request was (the usage the API reported). */
export function noteContextUsage(session: ChatSession, usage: Usage): void {
  stateOf(session).lastTokens =
    usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + usage.output_tokens;
}

export interface PrepareDeps {
  session: ChatSession;
  plan: Plan | null;
  publish(event: WaypointEvent): void;
  contextWindow?: number;
}

/**
 * The request as it is sent: old tool results shortened when the chat nears the context window
 * (the history and the log keep them whole), the plan's current state added when anything was
 * shortened, and the cache breakpoints set. The cut only moves forward, in jumps, so the
 * shortened prefix stays byte-stable (and cached) between jumps.
 */
export function prepareRequest(request: MessageCreateParamsBase, deps: PrepareDeps): MessageCreateParamsBase {
  const state = stateOf(deps.session);
  const window = deps.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const budget = window * HIGH_WATER - request.max_tokens;
  let messages = shortenBefore(request.messages, state.cut);
  const estimate = Math.max(state.lastTokens, estimateTokens({ ...request, messages }));
  if (estimate > budget && request.messages.length - KEEP_RECENT_MESSAGES > state.cut) {
    state.cut = request.messages.length - KEEP_RECENT_MESSAGES;
    messages = shortenBefore(request.messages, state.cut);
    const count = countShortened(request.messages, state.cut);
    const text = `This chat is close to the model's context limit, so Waypoint now sends Claude shortened versions of ${count} older tool result${count === 1 ? '' : 's'}. The full results stay in this chat, and the plan stays in view for Claude.`;
    deps.publish({ type: 'transcript_item', sessionId: deps.session.summary.id, item: noticeItem('info', text, 'context_trimmed') });
  }
  if (state.cut > 0) messages = withPlanNote(messages, deps.plan);
  return addCacheBreakpoints({ ...request, messages });
}

/** Roughly four characters per token, as for English text and JSON. */
export function estimateTokens(request: MessageCreateParamsBase): number {
  return Math.ceil(JSON.stringify({ s: request.system, t: request.tools, m: request.messages }).length / 4);
}

function resultText(block: ToolResultBlockParam): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}

function isLong(block: ContentBlockParam): block is ToolResultBlockParam {
  return block.type === 'tool_result' && resultText(block).length > SHORTEN_OVER_CHARS;
}

function shortenBefore(messages: MessageParam[], cut: number): MessageParam[] {
  if (cut <= 0) return messages;
  return messages.map((message, i) => {
    if (i >= cut || typeof message.content === 'string' || !message.content.some(isLong)) return message;
    return {
      ...message,
      content: message.content.map((block) => {
        if (!isLong(block)) return block;
        const text = resultText(block);
        return {
          ...block,
          content: `${text.slice(0, KEEP_CHARS)}\n… [Waypoint shortened this old tool result from ${text.length} characters to save context. Run the tool again if you need the rest.]`,
        };
      }),
    } as MessageParam;
  });
}

function countShortened(messages: MessageParam[], cut: number): number {
  return messages.slice(0, cut).reduce((n, m) => n + (typeof m.content === 'string' ? 0 : m.content.filter(isLong).length), 0);
}

/** The plan's current state in the last user message, so shortening never hides it. */
function withPlanNote(messages: MessageParam[], plan: Plan | null): MessageParam[] {
  const last = messages.at(-1);
  if (!plan || !last || last.role !== 'user') return messages;
  const steps = plan.steps.map((s) => `- [${s.status}] ${s.id}. ${s.title}`).join('\n');
  const note = `(Waypoint note: older tool results above were shortened to fit the context window. The current plan, "${plan.goal}", is ${plan.status}:\n${steps})`;
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
  return [...messages.slice(0, -1), { ...last, content: [...blocks, { type: 'text', text: note }] } as MessageParam];
}

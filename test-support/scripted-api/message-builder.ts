import { apiId } from './ids';
import type { ScriptedTurn } from './scenario';
import type { ThinkingSigner } from './thinking-signatures';
import { countRequestTokens, countText } from './token-count';
import { searchContent, type SearchSealer } from './web-search';
import type { WireContentBlock, WireMessage, WireUsage } from './wire-types';

/** What a reply's blocks cost as output: thinking counts (the API bills it as output, shown or not). */
export function outputText(content: readonly WireContentBlock[]): string {
  return content
    .map((b) =>
      b.type === 'text' ? b.text : b.type === 'thinking' ? b.thinking : b.type === 'redacted_thinking' ? b.data : b.type === 'web_search_tool_result' ? '' : JSON.stringify(b.input),
    )
    .join('');
}

/** Output tokens of a reply's content, thinking included (the same count as its input side, token-count.ts). */
export function outputTokens(content: readonly WireContentBlock[]): number {
  return Math.max(1, countText(outputText(content)));
}

export function usageFor(requestBody: unknown, content: WireContentBlock[]): WireUsage {
  return {
    input_tokens: countRequestTokens(requestBody),
    output_tokens: outputTokens(content),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    service_tier: 'standard',
  };
}

type ReplyTurn = Extract<ScriptedTurn, { kind: 'text' | 'tool_use' }>;

/** Whether a request asked for thinking (`thinking.type` enabled or adaptive). */
export function thinkingRequested(requestBody: unknown): boolean {
  const type = (requestBody as { thinking?: { type?: unknown } } | null)?.thinking?.type;
  return type === 'enabled' || type === 'adaptive';
}

/** The complete assistant Message a text or tool_use turn stands for. */
export function buildMessage(turn: ReplyTurn, model: string, requestBody: unknown, signer?: ThinkingSigner): WireMessage {
  const content: WireContentBlock[] = [];
  let stopReason: WireMessage['stop_reason'];
  // Thinking comes first, and only when asked for (a script's thinking is ignored otherwise).
  if (signer && thinkingRequested(requestBody)) {
    for (const thinking of turn.thinking ?? []) content.push({ type: 'thinking', thinking, signature: signer.sign(thinking) });
    for (let i = 0; i < (turn.redacted ?? 0); i++) content.push({ type: 'redacted_thinking', data: signer.redacted() });
  }
  if (turn.kind === 'text') {
    // Like the API, a reply stops at max_tokens (stop_reason "max_tokens"), cut where the count reaches it;
    // thinking comes out of the same max_tokens.
    const maxTokens = (requestBody as { max_tokens?: unknown } | null)?.max_tokens;
    const thought = content.length ? countText(outputText(content)) : 0;
    const text = withinTokens(turn.text, typeof maxTokens === 'number' ? Math.max(0, maxTokens - thought) : maxTokens);
    content.push({ type: 'text', text });
    stopReason = text.length < turn.text.length ? 'max_tokens' : (turn.stopReason ?? 'end_turn');
  } else {
    if (turn.text) content.push({ type: 'text', text: turn.text });
    for (const call of turn.calls) {
      content.push({ type: 'tool_use', id: call.id ?? apiId('toolu'), name: call.name, input: call.input ?? {} });
    }
    stopReason = 'tool_use';
  }
  return {
    id: apiId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: usageFor(requestBody, content),
  };
}

/**
 * The Message of a web_search turn for a request allowing `maxUses` searches: stop_reason
 * pause_turn when the script pauses, and usage.server_tool_use counting the searches that ran
 * (a search refused for max_uses is not billed).
 */
export function buildSearchMessage(turn: Extract<ScriptedTurn, { kind: 'web_search' }>, model: string, requestBody: unknown, maxUses: number, sealer: SearchSealer): WireMessage {
  const { content, searches } = searchContent(turn, maxUses, sealer);
  return {
    id: apiId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: turn.pause ? 'pause_turn' : 'end_turn',
    stop_sequence: null,
    usage: { ...usageFor(requestBody, content), server_tool_use: { web_search_requests: searches, web_fetch_requests: 0 } },
  };
}

/** The longest start of `text` whose count stays within `maxTokens` (all of it when it fits or there is no limit). */
function withinTokens(text: string, maxTokens: unknown): string {
  if (typeof maxTokens !== 'number' || countText(text) <= maxTokens) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (countText(text.slice(0, mid)) <= maxTokens) low = mid;
    else high = mid - 1;
  }
  return text.slice(0, low);
}

/** The text of the last user message (ignoring tool results), for the 'echo' fallback. */
export function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown };
    if (m?.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      const texts = m.content
        .filter((b): b is { type: 'text'; text: string } => b?.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text);
      if (texts.length) return texts.join('\n');
    }
  }
  return '';
}

/** Splits a string into pieces of at most `size` characters (at least one piece, maybe empty). */
export function chunk(text: string, size: number): string[] {
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += step) pieces.push(text.slice(i, i + step));
  return pieces.length ? pieces : [''];
}

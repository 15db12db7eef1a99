import { apiId } from './ids';
import type { ScriptedTurn } from './scenario';
import type { WireContentBlock, WireMessage, WireUsage } from './wire-types';

/** Roughly four characters per token, like English text: enough for realistic usage numbers. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function usageFor(requestBody: unknown, content: WireContentBlock[]): WireUsage {
  const output = content.map((b) => (b.type === 'text' ? b.text : JSON.stringify(b.input))).join('');
  return {
    input_tokens: estimateTokens(JSON.stringify(requestBody ?? '')),
    output_tokens: estimateTokens(output),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    service_tier: 'standard',
  };
}

type ReplyTurn = Extract<ScriptedTurn, { kind: 'text' | 'tool_use' }>;

/** The complete assistant Message a text or tool_use turn stands for. */
export function buildMessage(turn: ReplyTurn, model: string, requestBody: unknown): WireMessage {
  const content: WireContentBlock[] = [];
  let stopReason: WireMessage['stop_reason'];
  if (turn.kind === 'text') {
    content.push({ type: 'text', text: turn.text });
    stopReason = turn.stopReason ?? 'end_turn';
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

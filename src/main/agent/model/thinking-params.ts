import type { MessageParam, OutputConfig, ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import type { Settings } from '../../../shared/settings';
import { MIN_REPLY_ROOM, MIN_THINKING_BUDGET, type ModelThinking } from '../../../shared/thinking';

/**
 * The `thinking` part of a request (extended thinking), as the chosen model takes it:
 * adaptive (Claude decides how much, steered by effort) where the model supports it, else a
 * fixed budget (≥ 1024 tokens, with max_tokens above it, as the API requires). Thinking tokens
 * count toward max_tokens, so the reply keeps its own room on top of them.
 */

/** Room for thinking on top of the reply when the model decides how much to think. */
export const ADAPTIVE_THINKING_ROOM = 16_000;

export interface ThinkingFields {
  max_tokens: number;
  thinking?: ThinkingConfigParam;
  output_config?: OutputConfig;
}

type ThinkingSettings = Pick<Settings, 'maxTokens' | 'extendedThinking' | 'thinkingBudgetTokens' | 'thinkingEffort'>;

/**
 * The fields for one request. `on` says whether this request thinks (see thinkingThisTurn);
 * `outputCap` is the model's max_tokens ceiling.
 */
export function thinkingFields(settings: ThinkingSettings, support: ModelThinking, on: boolean, outputCap: number): ThinkingFields {
  const replyTokens = Math.min(settings.maxTokens, outputCap);
  if (!on) return { max_tokens: replyTokens };
  if (support.adaptive) {
    const effort = support.efforts.includes(settings.thinkingEffort) ? settings.thinkingEffort : undefined;
    return {
      max_tokens: Math.min(outputCap, settings.maxTokens + ADAPTIVE_THINKING_ROOM),
      // Newer models omit the thinking text unless asked: the user wants to read it.
      thinking: { type: 'adaptive', display: 'summarized' },
      ...(effort ? { output_config: { effort } } : {}),
    };
  }
  if (support.enabled && outputCap > MIN_THINKING_BUDGET + MIN_REPLY_ROOM) {
    const budget = Math.max(MIN_THINKING_BUDGET, Math.min(settings.thinkingBudgetTokens, outputCap - MIN_REPLY_ROOM));
    return { max_tokens: Math.min(outputCap, budget + settings.maxTokens), thinking: { type: 'enabled', budget_tokens: budget } };
  }
  return { max_tokens: replyTokens };
}

const hasToolResult = (message: MessageParam): boolean =>
  typeof message.content !== 'string' && message.content.some((b) => b.type === 'tool_result');

const startsWithThinking = (message: MessageParam): boolean =>
  typeof message.content !== 'string' && (message.content[0]?.type === 'thinking' || message.content[0]?.type === 'redacted_thinking');

/**
 * Whether this request thinks. A new user turn follows the setting. A tool loop keeps what its
 * turn began with: the API wants the turn's assistant message to start with its thinking block
 * whenever thinking is on, so a loop that began without thinking continues without it, and one
 * that began with it keeps it (the setting applies from the next user turn).
 */
export function thinkingThisTurn(history: readonly MessageParam[], wanted: boolean): boolean {
  const last = history.at(-1);
  if (!last || last.role !== 'user' || !hasToolResult(last)) return wanted;
  // Back to the first assistant message after the user's last own message.
  let first: MessageParam | undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    if (message.role === 'assistant') first = message;
    else if (!hasToolResult(message)) break;
  }
  return first ? startsWithThinking(first) : wanted;
}

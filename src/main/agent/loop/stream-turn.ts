import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import { StalledStreamError } from '../model/api-error-map';

export interface StreamTurnOptions {
  /** The user's Stop: aborts the request or stream at once. */
  signal: AbortSignal;
  /** No stream event for this long means the stream stalled: abort it and say so. */
  stallTimeoutMs: number;
  onConnected(): void;
  onText(delta: string): void;
  /** A thinking (or redacted_thinking) block starts: its text follows through onThinking. */
  onThinkingBlock?(redacted: boolean): void;
  onThinking?(delta: string): void;
  /** A content block is complete (a web search's server_tool_use or its result, for its card). */
  onBlock?(block: ContentBlock): void;
}

/**
 * One streamed model turn with the SDK's MessageStream. Resolves with the final Message;
 * rejects with the SDK's error, an APIUserAbortError on Stop, or StalledStreamError.
 */
export async function streamTurn(client: Anthropic, params: MessageCreateParamsBase, options: StreamTurnOptions): Promise<Message> {
  // maxRetries 0: the loop owns retries (model-turn.ts), including the mid-stream ones the SDK cannot do.
  const stream = client.messages.stream(params, { signal: options.signal, maxRetries: 0 });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stalled = false;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      stream.abort();
    }, options.stallTimeoutMs);
  };
  stream.on('connect', () => {
    options.onConnected();
    arm();
  });
  stream.on('streamEvent', (event) => {
    arm();
    if (event.type === 'content_block_start' && (event.content_block.type === 'thinking' || event.content_block.type === 'redacted_thinking')) {
      options.onThinkingBlock?.(event.content_block.type === 'redacted_thinking');
    }
  });
  stream.on('text', (delta) => options.onText(delta));
  if (options.onBlock) stream.on('contentBlock', options.onBlock);
  stream.on('thinking', (delta) => options.onThinking?.(delta));
  try {
    return await stream.finalMessage();
  } catch (error) {
    if (stalled && !options.signal.aborted) throw new StalledStreamError(options.stallTimeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { RunState } from '../../../shared/transcript';
import { decideApiRetry, type ApiRetryPolicy } from './api-retry-policy';
import type { ReplyThinking } from '../loop/reply-thinking';
import { waitUnlessStopped } from '../../common/wait';
import { streamTurn } from '../loop/stream-turn';

/** Where a turn's streamed text goes across its attempts (ReplyItem for the chat's reply). */
export interface TurnText {
  append(delta: string): void;
  /** The attempt failed and another follows: its text is to be replaced. */
  markStale(): void;
  /** An attempt succeeded without text: a failed attempt's text must not stay. */
  dropStaleText(): void;
}

export interface ModelTurnDeps {
  client: Anthropic;
  /** The user's Stop: ends a request, a stream or a backoff wait at once. */
  signal: AbortSignal;
  stallTimeoutMs: number;
  retryPolicy: ApiRetryPolicy;
  setState(state: RunState): void;
  reply: TurnText;
  /** The turn's thinking blocks, when extended thinking is on. */
  thinking?: ReplyThinking;
  /** Each content block once complete (web search cards: loop/web-search-cards.ts). */
  onBlock?(block: ContentBlock): void;
}

export type ModelTurnOutcome =
  | { kind: 'done'; message: Message }
  | { kind: 'stopped' }
  /** `retries` made before giving up; `exhausted` when the fault was transient but the budget ran out. */
  | { kind: 'failed'; error: unknown; retries: number; exhausted: boolean };

/**
 * One model turn: the same request, sent again after API faults (overload, rate limit, 5xx,
 * dropped or stalled stream) with backoff, on the loop's own budget. These are not model
 * mistakes, so nothing here touches a plan step's retries, and nothing of a failed attempt
 * reaches the history: the caller appends only the successful message.
 */
export async function requestModelTurn(request: MessageCreateParamsBase, deps: ModelTurnDeps): Promise<ModelTurnOutcome> {
  const { signal, reply } = deps;
  let retries = 0;
  for (;;) {
    deps.setState({ status: 'running', phase: 'requesting' });
    try {
      const message = await streamTurn(deps.client, request, {
        signal,
        stallTimeoutMs: deps.stallTimeoutMs,
        onConnected: () => deps.setState({ status: 'running', phase: 'streaming' }),
        onText: (delta) => reply.append(delta),
        onThinkingBlock: (redacted) => deps.thinking?.startBlock(redacted),
        onThinking: (delta) => deps.thinking?.append(delta),
        ...(deps.onBlock ? { onBlock: deps.onBlock } : {}),
      });
      reply.dropStaleText();
      return { kind: 'done', message };
    } catch (error) {
      if (signal.aborted) return { kind: 'stopped' };
      const decision = decideApiRetry(error, retries, deps.retryPolicy);
      if (decision.kind === 'give_up') return { kind: 'failed', error, retries, exhausted: decision.why === 'budget_exhausted' };
      reply.markStale();
      deps.thinking?.discard();
      const retryAt = new Date(deps.retryPolicy.now() + decision.delayMs).toISOString();
      deps.setState({ status: 'retrying', reason: decision.reason, attempt: decision.attempt, maxAttempts: decision.maxAttempts, retryAt });
      if (!(await waitUnlessStopped(decision.delayMs, signal))) return { kind: 'stopped' };
      retries = decision.attempt;
    }
  }
}

import { describe, expect, it, vi } from 'vitest';
import { ChatSession } from '../../chats/chat-session';
import { PagedItems } from '../../store/paging/paged-items';
import { anthropicClient } from '../model/anthropic-sdk';
import { DEFAULT_API_RETRY_POLICY } from '../model/api-retry-policy';
import type { Pause } from '../pauses/pause-kind';
import { summariseUpTo } from './compaction-summary';

// A compaction's summary request is a request of the plan's run too (docs/architecture.md "Plan
// budgets"): the budget is asked before it, and a stop sends nothing.
describe('the plan budget before a summary request', () => {
  it('is asked with the model and the request\'s size; a stop returns the pause and nothing is sent', async () => {
    const session = new ChatSession({ id: 'c', title: 't', createdAt: '', updatedAt: '' }, new PagedItems());
    for (let n = 1; n <= 4; n++) {
      session.appendUser([{ type: 'text', text: `Question ${n}: ${'words '.repeat(200)}` }]);
      session.appendAssistant([{ type: 'text', text: `Answer ${n}: ${'more words '.repeat(200)}` }]);
    }
    session.appendUser([{ type: 'text', text: 'And now?' }]);
    const pause: Pause = { events: [] };
    const admit = vi.fn(() => pause);
    // Port 9 (discard): a request sent there would fail, not answer; the stop sends none.
    const client = await anthropicClient({ apiKey: 'test-key-compaction-budget', baseURL: 'http://127.0.0.1:9', maxRetries: 0 });
    const onUsage = vi.fn();
    const outcome = await summariseUpTo(6, {
      session,
      client,
      signal: new AbortController().signal,
      limits: { contextWindow: 200_000, maxOutputTokens: 8_192 },
      base: { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: session.history.map((m) => ({ ...m })) },
      ratio: 1,
      retryPolicy: DEFAULT_API_RETRY_POLICY,
      stallTimeoutMs: 1_000,
      setState: () => undefined,
      onUsage,
      admit,
    });
    expect(outcome).toEqual({ kind: 'budget', pause });
    expect(admit).toHaveBeenCalledTimes(1);
    const [model, tokens] = admit.mock.calls[0] as unknown as [string, number];
    expect(model).toBe('claude-sonnet-4-6');
    expect(tokens).toBeGreaterThan(500);
    expect(onUsage).not.toHaveBeenCalled();
  });
});

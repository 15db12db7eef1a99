import { describe, expect, it } from 'vitest';
import { costUsd, formatUsd, priceFor } from './pricing';
import { meterRequest, usageOf } from './usage-meter';

describe('cost', () => {
  it('prices by model family, with cache writes at 1.25× and cache reads at 0.1× the input price', () => {
    expect(priceFor('claude-opus-4-5').family).toBe('opus');
    expect(priceFor('claude-haiku-4-5').family).toBe('haiku');
    expect(priceFor('claude-sonnet-4-6').family).toBe('sonnet');
    expect(priceFor('some-future-model').family).toBe('sonnet');
    // Sonnet: $3 in, $15 out per million tokens.
    const tokens = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 2_000_000, cacheWriteTokens: 400_000 };
    expect(costUsd('claude-sonnet-4-6', tokens)).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
    // Opus: $5 in, $25 out.
    expect(costUsd('claude-opus-4-5', { inputTokens: 10_000, outputTokens: 2_000, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeCloseTo(0.05 + 0.05, 10);
    // Haiku: $1 in, $5 out.
    expect(costUsd('claude-haiku-4-5', { inputTokens: 0, outputTokens: 0, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 })).toBeCloseTo(0.1 + 1.25, 10);
  });

  it('formats the header amount', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.004)).toBe('<$0.01');
    expect(formatUsd(0.0449)).toBe('$0.04');
    expect(formatUsd(12.345)).toBe('$12.35');
  });

  it('adds each request to the running total and to the step in progress', () => {
    const summary = { id: 's', title: 't', createdAt: 'x', updatedAt: 'x' };
    const usage = usageOf('claude-sonnet-4-6', { input_tokens: 1000, output_tokens: 100, cache_read_input_tokens: 5000, cache_creation_input_tokens: 200 });
    expect(usage).toMatchObject({ inputTokens: 1000, outputTokens: 100, cacheReadTokens: 5000, cacheWriteTokens: 200 });
    const once = meterRequest(summary, { sessionId: 's', model: 'claude-sonnet-4-6', usage, step: null });
    const twice = meterRequest(once, { sessionId: 's', model: 'claude-sonnet-4-6', usage, step: { planId: 'p', stepId: 2 } });
    expect(twice.usage).toMatchObject({ inputTokens: 2000, outputTokens: 200, cacheReadTokens: 10_000, cacheWriteTokens: 400 });
    expect(twice.usage!.costUsd).toBeCloseTo(2 * usage.costUsd, 12);
    expect(twice.stepCosts).toEqual({ 'p#2': usage.costUsd });
  });

  it('bills each web search at $10 per 1,000 on top of the tokens, and keeps the count', () => {
    const api = { input_tokens: 1000, output_tokens: 100, server_tool_use: { web_search_requests: 3, web_fetch_requests: 0 } };
    const usage = usageOf('claude-sonnet-4-6', api);
    expect(usage.webSearches).toBe(3);
    expect(usage.costUsd).toBeCloseTo(0.003 + 0.0015 + 0.03, 12);
    const summary = { id: 's', title: 't', createdAt: 'x', updatedAt: 'x' };
    const twice = meterRequest(meterRequest(summary, { sessionId: 's', model: 'm', usage, step: null }), { sessionId: 's', model: 'm', usage, step: null });
    expect(twice.usage).toMatchObject({ webSearches: 6 });
    expect(twice.usage!.costUsd).toBeCloseTo(2 * usage.costUsd, 12);
  });
});

import {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { StalledStreamError } from './api-error-map';
import { classifyApiFault, parseRetryAfter } from './api-fault-classifier';
import { backoffDelayMs, decideApiRetry, resolveRetryPolicy } from './api-retry-policy';

/** Real SDK errors, built the way the SDK builds them from a response. */
const http = (status: number, type: string, headers: Record<string, string> = {}) =>
  APIError.generate(status, { type: 'error', error: { type, message: `${type} message` } }, undefined, new Headers(headers));
/** What the SDK throws for `event: error` inside a 200 stream: an APIError without a status. */
const midStream = (type: string) => new APIError(undefined, { type: 'error', error: { type, message: 'x' } }, undefined, new Headers(), type as never);
/** What a socket cut mid-stream looks like: AnthropicError wrapping undici's TypeError. */
const dropped = () => Object.assign(new AnthropicError('terminated'), { cause: new TypeError('terminated') });

const NOW = Date.parse('2025-06-01T12:00:00Z');
const policy = resolveRetryPolicy({ baseDelayMs: 1_000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000, random: () => 0, now: () => NOW });

describe('classifyApiFault', () => {
  it.each([
    ['529 overloaded', http(529, 'overloaded_error'), 'overloaded'],
    ['429 rate limit', http(429, 'rate_limit_error'), 'rate_limit'],
    ['500 api_error', http(500, 'api_error'), 'server'],
    ['502 bad gateway', http(502, 'api_error'), 'server'],
    ['503 unavailable', http(503, 'api_error'), 'server'],
    ['504 gateway timeout', http(504, 'timeout_error'), 'timeout'],
    ['408 request timeout', http(408, 'timeout_error'), 'timeout'],
    ['mid-stream overloaded_error', midStream('overloaded_error'), 'overloaded'],
    ['mid-stream api_error', midStream('api_error'), 'server'],
    ['mid-stream rate_limit_error', midStream('rate_limit_error'), 'rate_limit'],
    ['connection refused', new APIConnectionError({ message: 'Connection error.', cause: new TypeError('fetch failed') }), 'network'],
    ['connection timeout', new APIConnectionTimeoutError(), 'timeout'],
    ['socket cut mid-stream', dropped(), 'network'],
    ['ECONNRESET cause', Object.assign(new AnthropicError('read ECONNRESET'), { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }), 'network'],
    ['truncated stream', new AnthropicError('stream ended without producing a Message with role=assistant'), 'network'],
    ['our stall watchdog', new StalledStreamError(60_000), 'stalled'],
    ['x-should-retry: true on a 409', http(409, 'conflict_error', { 'x-should-retry': 'true' }), 'server'],
  ])('%s is transient (%s)', (_, error, kind) => {
    expect(classifyApiFault(error, NOW)).toMatchObject({ retryable: true, kind });
  });

  it.each([
    ['400 invalid request', http(400, 'invalid_request_error')],
    ['401 bad key', http(401, 'authentication_error')],
    ['403 permission', http(403, 'permission_error')],
    ['404 unknown model', http(404, 'not_found_error')],
    ['413 too large', http(413, 'request_too_large')],
    ['mid-stream invalid_request_error', midStream('invalid_request_error')],
    ['the user pressed Stop', new APIUserAbortError()],
    ['x-should-retry: false on a 503', http(503, 'api_error', { 'x-should-retry': 'false' })],
    ['a bug in our code', new TypeError("Cannot read properties of undefined (reading 'text')")],
    ['a string', 'boom'],
  ])('%s is not retried', (_, error) => {
    expect(classifyApiFault(error, NOW)).toEqual({ retryable: false });
  });
});

describe('parseRetryAfter', () => {
  it.each([
    [{ 'retry-after': '7' }, 7_000],
    [{ 'retry-after': '0.25' }, 250],
    [{ 'retry-after-ms': '1500', 'retry-after': '9' }, 1_500],
    [{ 'retry-after-ms': 'soon', 'retry-after': '2' }, 2_000],
    [{ 'retry-after': new Date(NOW + 12_000).toUTCString() }, 12_000],
    [{ 'retry-after': new Date(NOW - 5_000).toUTCString() }, null],
    [{ 'retry-after': '0' }, null],
    [{ 'retry-after': 'whenever' }, null],
    [{}, null],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfter(new Headers(headers), NOW)).toBe(expected);
  });
});

describe('decideApiRetry', () => {
  it('backs off exponentially from the base, capped, attempt numbers from 1', () => {
    const delays = [0, 1, 2, 3, 4].map((n) => decideApiRetry(http(529, 'overloaded_error'), n, policy));
    expect(delays.map((d) => d.kind === 'retry' && [d.attempt, d.delayMs])).toEqual([
      [1, 1_000],
      [2, 2_000],
      [3, 4_000],
      [4, 8_000],
      [5, 16_000],
    ]);
    expect(delays[1]).toMatchObject({ kind: 'retry', reason: 'Claude is overloaded', maxAttempts: 5, fault: 'overloaded', fromRetryAfter: false });
    const capped = decideApiRetry(http(500, 'api_error'), 7, { ...policy, maxAttempts: 10 });
    expect(capped).toMatchObject({ kind: 'retry', attempt: 8, delayMs: 30_000 });
  });

  it('jitter only shortens the wait, by at most a quarter', () => {
    expect(backoffDelayMs(3, { ...policy, random: () => 0 })).toBe(4_000);
    expect(backoffDelayMs(3, { ...policy, random: () => 0.5 })).toBe(3_500);
    expect(backoffDelayMs(3, { ...policy, random: () => 0.999999 })).toBeCloseTo(3_000, 0);
  });

  it('honours retry-after over the backoff, capped at maxRetryAfterMs', () => {
    expect(decideApiRetry(http(429, 'rate_limit_error', { 'retry-after': '12' }), 0, policy)).toMatchObject({
      kind: 'retry',
      delayMs: 12_000,
      fromRetryAfter: true,
      reason: 'Rate limited by the API',
    });
    expect(decideApiRetry(http(429, 'rate_limit_error', { 'retry-after-ms': '350' }), 3, policy)).toMatchObject({ delayMs: 350, attempt: 4 });
    expect(decideApiRetry(http(429, 'rate_limit_error', { 'retry-after': '3600' }), 0, policy)).toMatchObject({ delayMs: 60_000 });
  });

  it.each([
    [dropped(), 'Connection dropped'],
    [new StalledStreamError(100), 'The stream stalled'],
    [http(503, 'api_error'), 'The Anthropic API had a server error'],
    [new APIConnectionTimeoutError(), 'The request timed out'],
  ])('gives a human reason for %s', (error, reason) => {
    expect(decideApiRetry(error, 0, policy)).toMatchObject({ kind: 'retry', reason });
  });

  it('gives up when the budget is spent, and at once on errors that retrying cannot fix', () => {
    expect(decideApiRetry(http(529, 'overloaded_error'), 5, policy)).toEqual({
      kind: 'give_up',
      why: 'budget_exhausted',
      fault: 'overloaded',
      attempts: 5,
      maxAttempts: 5,
    });
    expect(decideApiRetry(http(529, 'overloaded_error'), 2, { ...policy, maxAttempts: 2 })).toMatchObject({ kind: 'give_up', why: 'budget_exhausted' });
    expect(decideApiRetry(http(401, 'authentication_error'), 0, policy)).toEqual({
      kind: 'give_up',
      why: 'not_retryable',
      fault: null,
      attempts: 0,
      maxAttempts: 5,
    });
  });

  it('defaults to 5 attempts, 1 s base and a 30 s cap', () => {
    expect(resolveRetryPolicy()).toMatchObject({ maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 30_000 });
  });
});

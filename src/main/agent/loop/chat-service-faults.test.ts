import { afterEach, describe, expect, it } from 'vitest';
import {
  retryingStates,
  sendAndSettle,
  sentMessages,
  setupFaults as setup,
  teardownFaults,
  type FaultCtx,
} from '../../../../test-support/main/fault-test-setup';

afterEach(teardownFaults);

const KEPT = 'Your message is kept: press "Retry now" to send it again, or write another message.';

/**
 * After a failure, the conversation continues: the next request's history is valid, and holds
 * nothing of the failed attempts. The unanswered message is merged with the new one (no two user
 * messages in a row), so Claude sees both.
 */
async function expectRecovers(ctx: FaultCtx) {
  const after = await sendAndSettle(ctx, 'try again');
  expect(after).toEqual([expect.objectContaining({ kind: 'assistant', status: 'done', text: 'You said: hi\ntry again' })]);
  expect(sentMessages(ctx, -1)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'text', text: 'try again' }] }]);
  expect(ctx.chats.getSession(ctx.session.id).runState).toEqual({ status: 'idle' });
}

describe('API faults that retrying cannot fix', () => {
  it('401 ends the run at once with an auth notice that says what to do', async () => {
    const ctx = await setup([], { serverKey: 'a-different-key' });
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([
      expect.objectContaining({ kind: 'notice', level: 'error', code: 'auth', text: 'Claude rejected the API key (401). Open Settings and paste a valid key.' }),
    ]);
    expect(ctx.server.requests).toHaveLength(1); // not retried, by us or by the SDK
    expect(retryingStates(ctx)).toEqual([]);
    expect(ctx.chats.getSession(ctx.session.id).runState).toEqual({ status: 'idle' });
  });

  it('a scripted 401 fault, then recovery', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'unauthorized' }]);
    expect(await sendAndSettle(ctx, 'hi')).toEqual([expect.objectContaining({ kind: 'notice', code: 'auth' })]);
    expect(ctx.server.requests).toHaveLength(1);
    await expectRecovers(ctx);
  });

  it('400 gives a bad_request notice carrying the API message, without retrying', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'bad_request' }]);
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', level: 'error', code: 'bad_request' });
    expect((notice as { text: string }).text).toContain('text content blocks must be non-empty');
    expect(ctx.server.requests).toHaveLength(1);
    expect(retryingStates(ctx)).toEqual([]);
    await expectRecovers(ctx);
  });
});

describe('API faults beyond the retry budget', () => {
  it('persistent 429 ends with a rate_limit notice that says it retried and kept the message', async () => {
    const limited = { kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 0.01 } as const;
    const ctx = await setup([limited, limited], { apiRetry: { maxAttempts: 1 } });
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', level: 'error', code: 'rate_limit' });
    expect((notice as { text: string }).text).toMatch(/\(429\)\. Waypoint retried 1 time without success\. Wait a minute/);
    expect((notice as { text: string }).text).toContain(KEPT);
    expect(ctx.server.requests).toHaveLength(2);
    await expectRecovers(ctx);
  });

  it('529 after the budget gives an overloaded notice', async () => {
    const ctx = await setup(Array.from({ length: 3 }, () => ({ kind: 'fault', fault: 'overloaded' }) as const), { apiRetry: { maxAttempts: 2 } });
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', code: 'overloaded', text: `Claude is overloaded right now (529). Waypoint retried 2 times without success. ${KEPT}` });
    expect(retryingStates(ctx).map((s) => [s.attempt, s.maxAttempts])).toEqual([[1, 2], [2, 2]]);
    await expectRecovers(ctx);
  });

  it('500 after the budget gives a server notice', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'server_error' }, { kind: 'fault', fault: 'server_error' }], { apiRetry: { maxAttempts: 1 } });
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', code: 'server' });
    expect((notice as { text: string }).text).toContain('(500)');
    await expectRecovers(ctx);
  });

  it('mid-stream errors beyond the budget: the partial text shows once, marked failed, and stays out of the history', async () => {
    const fault = { kind: 'fault', fault: 'midstream_error', partialText: 'The answer starts with' } as const;
    const ctx = await setup([fault, fault], { apiRetry: { maxAttempts: 1 } });
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'The answer starts with', status: 'error' }),
      expect.objectContaining({ kind: 'notice', code: 'overloaded' }),
    ]);
    expect((after[1] as { text: string }).text).toContain('in the middle of its reply');
    await expectRecovers(ctx);
  });

  it('dropped connections beyond the budget give a network notice', async () => {
    const fault = { kind: 'fault', fault: 'drop', partialText: 'Half an answer' } as const;
    const ctx = await setup([fault, fault], { apiRetry: { maxAttempts: 1 } });
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'Half an answer', status: 'error' }),
      expect.objectContaining({ kind: 'notice', level: 'error', code: 'network' }),
    ]);
    expect(retryingStates(ctx).map((s) => s.reason)).toEqual(['Connection dropped']);
    await expectRecovers(ctx);
  });

  it('stalled streams beyond the budget are abandoned after stallTimeoutMs with a stalled notice', async () => {
    const fault = { kind: 'fault', fault: 'stall', partialText: 'Thinking' } as const;
    const ctx = await setup([fault, fault], { stallTimeoutMs: 200, apiRetry: { maxAttempts: 1 } });
    const started = Date.now();
    const after = await sendAndSettle(ctx, 'hi');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(after).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'Thinking', status: 'error' }),
      expect.objectContaining({ kind: 'notice', code: 'stalled' }),
    ]);
    expect((after[1] as { text: string }).text).toContain('no data for 200 ms');
    await expectRecovers(ctx);
  });

  it('an unreachable API is retried as a dropped connection, then gives a network notice', async () => {
    const ctx = await setup([], { apiRetry: { maxAttempts: 2 } });
    await ctx.server.close();
    const [notice] = await sendAndSettle(ctx, 'hi');
    expect(notice).toMatchObject({ kind: 'notice', code: 'network' });
    expect((notice as { text: string }).text).toContain('could not reach the Anthropic API');
    expect((notice as { text: string }).text).toContain('retried 2 times');
    expect(retryingStates(ctx).map((s) => s.reason)).toEqual(['Connection dropped', 'Connection dropped']);
  });
});

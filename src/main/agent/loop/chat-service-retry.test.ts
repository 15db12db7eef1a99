import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { UserFacingError } from '../../common/errors';
import {
  retryingStates,
  runStates,
  sendAndSettle,
  sentMessages,
  setupFaults as setup,
  teardownFaults,
  type FaultCtx,
} from '../../../../test-support/main/fault-test-setup';

afterEach(teardownFaults);

const overloaded: ScriptedTurn = { kind: 'fault', fault: 'overloaded' };
const FINAL = 'The answer starts with forty-two, and that is final.';

/** Every request of the run was the same request: a retry resends it, it does not rebuild it. */
function expectSameRequests(ctx: FaultCtx, count: number) {
  expect(ctx.server.requests).toHaveLength(count);
  const bodies = ctx.server.requests.map((r) => JSON.stringify(r.body));
  expect(new Set(bodies).size).toBe(1);
}

/** The next message's request carries the recovered reply exactly once, and nothing else of the faults. */
async function expectHistoryHoldsReplyOnce(ctx: FaultCtx, reply: string) {
  await sendAndSettle(ctx, 'and then?');
  expect(sentMessages(ctx, -1)).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'text', text: reply }] },
    { role: 'user', content: [{ type: 'text', text: 'and then?' }] },
  ]);
}

describe('the loop rides out API faults on its own budget', () => {
  it('a 529 storm (4× overloaded) ends in the recovered answer, shown once, with live retry states in order', async () => {
    const ctx = await setup([overloaded, overloaded, overloaded, overloaded, { kind: 'text', text: 'Recovered answer.' }]);
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([expect.objectContaining({ kind: 'assistant', text: 'Recovered answer.', status: 'done' })]);
    expectSameRequests(ctx, 5);

    const retrying = retryingStates(ctx);
    expect(retrying.map((s) => [s.reason, s.attempt, s.maxAttempts])).toEqual([
      ['Claude is overloaded', 1, 5],
      ['Claude is overloaded', 2, 5],
      ['Claude is overloaded', 3, 5],
      ['Claude is overloaded', 4, 5],
    ]);
    for (const s of retrying) expect(Number.isNaN(Date.parse(s.retryAt))).toBe(false);
    // Each wait is followed by a new request, and the run ends idle.
    const statuses = runStates(ctx).map((s) => (s.status === 'running' ? s.phase : s.status));
    expect(statuses.join(' ')).toMatch(/^requesting( requesting retrying){4} requesting streaming idle$/);
    await expectHistoryHoldsReplyOnce(ctx, 'Recovered answer.');
  });

  it('429 waits what retry-after says, not the (tiny) backoff', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 0.3 }, { kind: 'text', text: 'Made it.' }]);
    const announcedAt: number[] = [];
    ctx.chats.onEvent((e) => void (e.type === 'run_state' && e.state.status === 'retrying' && announcedAt.push(Date.now())));
    const started = Date.now();
    const after = await sendAndSettle(ctx, 'hi');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2_000);
    expect(after).toEqual([expect.objectContaining({ kind: 'assistant', text: 'Made it.', status: 'done' })]);
    const [state] = retryingStates(ctx);
    expect(state).toMatchObject({ reason: 'Rate limited by the API', attempt: 1, maxAttempts: 5 });
    // retryAt tells the UI when the retry goes out, for a live countdown.
    const announcedWait = Date.parse(state!.retryAt) - announcedAt[0]!;
    expect(announcedWait).toBeGreaterThanOrEqual(280);
    expect(announcedWait).toBeLessThanOrEqual(600); // retry-after (300 ms), not the 1 s backoff
    expectSameRequests(ctx, 2);
  });

  it('retry-after-ms wins over retry-after', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'rate_limit', retryAfterSeconds: 30, retryAfterMs: 150 }, { kind: 'text', text: 'Quick.' }]);
    const started = Date.now();
    expect(await sendAndSettle(ctx, 'hi')).toEqual([expect.objectContaining({ text: 'Quick.', status: 'done' })]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a mid-stream error after partial text, then success: the final text shows exactly once', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'midstream_error', partialText: 'The answer starts with' }, { kind: 'text', text: FINAL }]);
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([expect.objectContaining({ kind: 'assistant', text: FINAL, status: 'done' })]);
    expect(retryingStates(ctx).map((s) => s.reason)).toEqual(['Claude is overloaded']);
    // The failed attempt's bubble was reset in place (same item), not appended to.
    const itemId = after[0]!.id;
    const resets = ctx.recorder.ofType('transcript_item').filter((e) => e.item.id === itemId && e.item.kind === 'assistant' && e.item.text === '');
    expect(resets).toHaveLength(2); // created empty, then reset for the retry
    expect(ctx.recorder.ofType('message_done').filter((e) => e.itemId === itemId)).toHaveLength(1);
    await expectHistoryHoldsReplyOnce(ctx, FINAL);
  });

  it('a dropped connection after partial text, then success', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'drop', partialText: 'Half an answer' }, { kind: 'text', text: 'Half an answer, and the other half.' }]);
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([expect.objectContaining({ kind: 'assistant', text: 'Half an answer, and the other half.', status: 'done' })]);
    expect(retryingStates(ctx).map((s) => s.reason)).toEqual(['Connection dropped']);
    await expectHistoryHoldsReplyOnce(ctx, 'Half an answer, and the other half.');
  });

  it('a stalled stream, then success', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'stall', partialText: 'Thinking' }, { kind: 'text', text: 'Thinking done.' }], { stallTimeoutMs: 250 });
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([expect.objectContaining({ kind: 'assistant', text: 'Thinking done.', status: 'done' })]);
    expect(retryingStates(ctx).map((s) => s.reason)).toEqual(['The stream stalled']);
    await expectHistoryHoldsReplyOnce(ctx, 'Thinking done.');
  });

  it('a fault after partial text, then a reply of tool calls only: the stale text does not stay', async () => {
    const ctx = await setup([
      { kind: 'fault', fault: 'midstream_error', partialText: 'Stale words' },
      { kind: 'tool_use', calls: [{ name: 'make_plan', input: { steps: ['one'] } }] },
      { kind: 'text', text: 'Planned.' },
    ]);
    const after = await sendAndSettle(ctx, 'hi');
    const assistants = after.filter((i) => i.kind === 'assistant');
    expect(assistants.map((i) => i.kind === 'assistant' && [i.text, i.status])).toEqual([
      ['', 'done'],
      ['Planned.', 'done'],
    ]);
    expect(JSON.stringify(sentMessages(ctx, -1))).not.toContain('Stale words');
  });
});

describe('after the budget: the message is kept, and "Retry now" resends it', () => {
  it('budget exhausted → notice and idle, user message still in the history; retryRun succeeds once the API recovers', async () => {
    const ctx = await setup([overloaded, overloaded, overloaded], { apiRetry: { maxAttempts: 2 } });
    const after = await sendAndSettle(ctx, 'hi');
    expect(after).toEqual([expect.objectContaining({ kind: 'notice', level: 'error', code: 'overloaded' })]);
    expect((after[0] as { text: string }).text).toMatch(/retried 2 times.*Your message is kept/);
    expect(ctx.chats.getSession(ctx.session.id).runState).toEqual({ status: 'idle' });
    expect(ctx.server.requests).toHaveLength(3);

    const mark = ctx.recorder.events.length;
    expect(ctx.service.retryRun(ctx.session.id)).toEqual({ started: true });
    expect(() => ctx.service.retryRun(ctx.session.id)).toThrow(expect.objectContaining({ code: 'busy' }));
    await ctx.recorder.idle(ctx.session.id, mark);
    const transcript = ctx.chats.getSession(ctx.session.id).transcript;
    expect(transcript.filter((i) => i.kind === 'user')).toHaveLength(1); // nothing typed twice
    expect(transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'You said: hi', status: 'done' });
    expect(sentMessages(ctx, -1)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    // Claude has answered: there is nothing left to retry.
    expect(ctx.service.retryRun(ctx.session.id)).toEqual({ started: false });
  });

  it('retryRun refuses unknown chats and does nothing in an empty one', async () => {
    const ctx = await setup([]);
    expect(() => ctx.service.retryRun('missing')).toThrow(UserFacingError);
    expect(ctx.service.retryRun(ctx.session.id)).toEqual({ started: false });
    expect(ctx.server.requests).toHaveLength(0);
  });

  it('Stop during the backoff wait ends the run at once, idle, with nothing of the failed attempt in the history', async () => {
    const ctx = await setup([{ kind: 'fault', fault: 'midstream_error', partialText: 'Partial' }], { apiRetry: { baseDelayMs: 10_000, maxDelayMs: 10_000 } });
    ctx.service.sendMessage(ctx.session.id, 'hi');
    await ctx.recorder.waitFor((e) => e.type === 'run_state' && e.state.status === 'retrying');
    const stoppedAt = Date.now();
    expect(ctx.service.stop(ctx.session.id)).toEqual({ stopped: true });
    await ctx.recorder.idle(ctx.session.id);
    // The backoff wait is 10 s: ending well before it means Stop cancelled the wait.
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect(ctx.server.requests).toHaveLength(1); // the retry was never sent
    const transcript = ctx.chats.getSession(ctx.session.id).transcript;
    expect(transcript.map((i) => i.kind)).toEqual(['user', 'assistant', 'notice']);
    expect(transcript[1]).toMatchObject({ text: 'Partial', status: 'stopped' });
    expect(transcript[2]).toMatchObject({ code: 'stopped', text: 'You stopped Claude.' });

    const after = await sendAndSettle(ctx, 'next');
    expect(after).toEqual([expect.objectContaining({ text: 'You said: hi\nnext', status: 'done' })]);
  });
});

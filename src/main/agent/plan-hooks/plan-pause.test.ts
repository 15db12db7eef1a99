import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import type { ScriptedServer } from '../../../../test-support/scripted-api/server';
import { continuePlanMessage } from '../../../shared/plan-pause';
import type { NoticeItem } from '../../../shared/transcript';
import { scripted, startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';

// A plan left unfinished when a turn ends (end_turn or Stop) is paused (docs/contract.md §5; issue 12,
// item 8): the chat's summary says so (the sidebar and the panel read it), a Stop leaves a note,
// and it survives a restart. The loop, the real PlanService and session log, the real SDK.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const plan = { kind: 'tool_use' as const, calls: [{ name: 'create_plan', input: { goal: 'Release', steps: ['Build', 'Test', 'Tag'].map((description, i) => ({ step_number: i + 1, description })) } }] };
const step = (n: number, action: string) => ({ kind: 'tool_use' as const, calls: [{ name: 'update_plan', input: { action, step_number: n } }] });

async function start(scenario: Scenario, more: Parameters<typeof settingsSource>[0] = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-pause-'));
  const server: ScriptedServer = await scripted(scenario);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => server.close());
  const settings = settingsSource({ planningStyle: 'structured', ...more });
  const ctx = { app: (await startInstance(dataDir, server.url, settings)) as Instance, server };
  cleanups.push(() => ctx.app.close());
  const session = ctx.app.chats.newSession();
  const summary = () => ctx.app.chats.listSessions().find((s) => s.id === session.id)!;
  const notices = () => ctx.app.chats.getSession(session.id).transcript.filter((i): i is NoticeItem => i.kind === 'notice');
  const restart = async () => {
    await ctx.app.close();
    ctx.app = await startInstance(dataDir, server.url, settings);
  };
  return { ctx, session, summary, notices, restart };
}

describe('a paused plan', () => {
  it('end_turn with steps left pauses the plan, without a stop note; it is still paused after a restart', async () => {
    const { ctx, session, summary, notices, restart } = await start({
      name: 'asks',
      turns: [plan, step(1, 'start_step'), step(1, 'complete_step'), { kind: 'text', text: 'Shall I run the tests (step 2)?' }],
    });
    ctx.app.chat.sendMessage(session.id, 'Release it');
    await ctx.app.idle(session.id);
    expect(summary().planProgress).toEqual({ completed: 1, total: 3, status: 'active', paused: true });
    expect(notices()).toEqual([]);
    await restart();
    expect(summary().planProgress).toMatchObject({ paused: true });
    expect(ctx.app.chats.getSession(session.id).plan).toMatchObject({ status: 'active' });
  });

  it('"Max model turns" with steps left pauses the plan, and "Continue plan" starts a new run that goes on', async () => {
    const { ctx, session, summary, notices } = await start(
      {
        name: 'turn-limit',
        turns: [plan, step(1, 'start_step'), step(1, 'complete_step'), step(2, 'start_step'), { kind: 'text', text: 'Going on with step 2.' }],
      },
      { maxModelTurns: 3 },
    );
    ctx.app.chat.sendMessage(session.id, 'Release it');
    await ctx.app.idle(session.id);
    expect(ctx.server.requests).toHaveLength(3);
    expect(notices().map((n) => n.code)).toEqual(['turn_limit']);
    expect(summary().planProgress).toEqual({ completed: 1, total: 3, status: 'active', paused: true });
    expect(ctx.app.chats.getSession(session.id).runState).toEqual({ status: 'idle' });

    const plan1 = ctx.app.chats.getSession(session.id).plan!;
    ctx.app.chat.sendMessage(session.id, continuePlanMessage(plan1));
    await ctx.app.idle(session.id);
    expect(ctx.server.requests.length).toBeGreaterThan(3);
    expect(ctx.app.chats.getSession(session.id).plan!.steps.find((s) => s.id === 2)?.status).toBe('in_progress');
  });

  it('Stop between replies leaves a note with what is left, and pauses the plan', async () => {
    const { ctx, session, summary, notices } = await start({
      name: 'stopped',
      gated: true,
      turns: [plan, step(1, 'start_step'), { kind: 'text', text: 'never sent' }],
    });
    ctx.app.chat.sendMessage(session.id, 'Release it');
    await ctx.server.release(2);
    // The third request waits at the gate: Claude is "thinking" when the user presses Stop.
    for (const deadline = Date.now() + 10_000; ctx.server.requests.length < 3; await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > deadline) throw new Error('the third request never came');
    }
    expect(summary().planProgress?.paused).toBeUndefined();
    expect(ctx.app.chat.stop(session.id)).toEqual({ stopped: true });
    await ctx.app.idle(session.id);
    expect(notices()).toEqual([
      expect.objectContaining({
        level: 'info',
        code: 'stopped',
        text: 'You stopped Claude. The plan is paused with 3 steps left: press "Continue plan", or write a message to go on.',
      }),
    ]);
    expect(summary().planProgress).toEqual({ completed: 0, total: 3, status: 'active', paused: true });
    expect(ctx.app.chats.getSession(session.id).runState).toEqual({ status: 'idle' });
  });

  it('"Continue plan" (or any message) un-pauses it while Claude works; a finished plan is not paused', async () => {
    const { ctx, session, summary } = await start({
      name: 'continues',
      turns: [
        plan,
        step(1, 'start_step'),
        { kind: 'text', text: 'Pausing here.' },
        step(1, 'complete_step'),
        step(2, 'start_step'),
        step(2, 'complete_step'),
        step(3, 'start_step'),
        step(3, 'complete_step'),
        { kind: 'text', text: 'All done.' },
      ],
    });
    ctx.app.chat.sendMessage(session.id, 'Release it');
    await ctx.app.idle(session.id);
    expect(summary().planProgress?.paused).toBe(true);
    const message = continuePlanMessage(ctx.app.chats.getSession(session.id).plan!);
    expect(message).toBe('Continue the plan: 3 steps left');
    const from = ctx.app.events.length;
    ctx.app.chat.sendMessage(session.id, message);
    // Before the run says it is running, the summary no longer claims a pause.
    const after = ctx.app.events.slice(from);
    const runningAt = after.findIndex((e) => e.type === 'run_state' && e.state.status === 'running');
    const lastSummary = after.slice(0, runningAt).findLast((e) => e.type === 'session_updated' && e.session.id === session.id);
    expect(lastSummary).toMatchObject({ session: { planProgress: { completed: 0, total: 3, status: 'active' } } });
    expect((lastSummary as { session: { planProgress: object } }).session.planProgress).not.toHaveProperty('paused');
    await ctx.app.idle(session.id);
    for (const deadline = Date.now() + 10_000; ctx.app.chats.getSession(session.id).plan?.status !== 'completed'; await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > deadline) throw new Error('the plan did not complete');
    }
    expect(summary().planProgress).toEqual({ completed: 3, total: 3, status: 'completed' });
  });

  it('an API failure ("Retry now") does not pause the plan', async () => {
    const { ctx, session, summary } = await start({
      name: 'fails',
      turns: [plan, step(1, 'start_step'), { kind: 'fault', fault: 'bad_request' }],
    });
    ctx.app.chat.sendMessage(session.id, 'Release it');
    await ctx.app.idle(session.id);
    expect(summary().planProgress).toEqual({ completed: 0, total: 3, status: 'active' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import type { ScriptedServer } from '../../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { priceFor } from '../model/pricing';
import { planSpend } from '../model/usage-meter';

// The plan's budget through the loop, the real PlanService, the chat's log and the real SDK
// against scripted Claude (docs/architecture.md "Plan budgets"), at each model family's prices:
// the run stops before the request that would pass the budget, the stop survives a restart,
// "Extend budget" goes on, "End plan" ends the plan partial and sends nothing more.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const use = (name: string, input: unknown): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name, input }] });
const step = (n: number): ScriptedTurn[] => [
  use('update_plan', { action: 'start_step', step_number: n }),
  use('update_plan', { action: 'complete_step', step_number: n, result: `step ${n} done` }),
];
const TURNS: ScriptedTurn[] = [
  use('create_plan', { goal: 'Do six things', steps: [1, 2, 3, 4, 5, 6].map((n) => ({ step_number: n, description: `Thing ${n}` })) }),
  ...[1, 2, 3, 4, 5, 6].flatMap(step),
  { kind: 'text', text: 'All done.' },
];

/** A budget worth about this many requests of this chat at the model's input price (each request is a few thousand tokens). */
const budgetFor = (model: string, requests: number) => Math.round(((priceFor(model).inputPerMTok * 4_000 * requests) / 1_000_000) * 1e4) / 1e4;

async function start(model: string, usd: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-budget-'));
  const server: ScriptedServer = await scripted({ name: 'budget', turns: TURNS, onExhausted: 'error' });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => server.close());
  const settings = settingsSource({ model, planningStyle: 'structured', planBudgetUsd: usd });
  const ctx = { app: (await startInstance(dataDir, server.url, settings)) as Instance };
  cleanups.push(() => ctx.app.close());
  const session = ctx.app.chats.newSession();
  return {
    ctx,
    server,
    session,
    restart: async () => {
      await ctx.app.close();
      ctx.app = await startInstance(dataDir, server.url, settings);
    },
  };
}

describe.each(['claude-opus-4-5', 'claude-sonnet-4-6', 'claude-haiku-4-5'])('plan budget at %s prices', (model) => {
  it('stops before the request that would pass it, keeps the stop over a restart, and "Extend budget" goes on', async () => {
    const usd = budgetFor(model, 3);
    const t = await start(model, usd);
    t.ctx.app.chat.sendMessage(t.session.id, 'Do the six things');
    await t.ctx.app.idle(t.session.id);

    const plan = t.ctx.app.plans.getPlan(t.session.id)!;
    expect(plan.status).toBe('active');
    expect(plan.budget?.usd).toBe(usd);
    const reached = plan.budget?.reached;
    expect(reached).toMatchObject({ limit: 'usd' });
    const summary = t.ctx.app.chats.getSession(t.session.id).session;
    const spent = planSpend(summary, plan.id);
    // The stop names the plan's real spend, and the request it held back would have passed the budget.
    expect(reached!.spentUsd).toBeCloseTo(spent, 10);
    expect(reached!.spentUsd + reached!.estimateUsd).toBeGreaterThan(usd);
    // Every request sent was one the budget allowed: the spend before the last is within it.
    expect(spent).toBeLessThanOrEqual(usd + reached!.estimateUsd);
    // Stopped well before the script ran out (it has 14 turns).
    const sent = t.server.requests.length;
    expect(sent).toBeGreaterThan(1);
    expect(sent).toBeLessThan(TURNS.length);
    expect(t.ctx.app.chats.getSession(t.session.id).transcript.some((i) => i.kind === 'notice' && i.code === 'budget_reached')).toBe(true);

    // Nothing is sent while it waits, and the stop comes back after a restart.
    await t.restart();
    // Read from its log at start, not only listed from the index: the listing stamps it "needs-you" (app/listed-runs.ts).
    expect(t.ctx.app.chats.sessionInMemory(t.session.id)).toBeDefined();
    expect(t.server.requests.length).toBe(sent);
    const restored = t.ctx.app.plans.getPlan(t.session.id)!;
    expect(restored.budget?.reached?.id).toBe(reached!.id);
    // The "Needs you" dialog of a window that never opened the chat asks main for the stop.
    expect(t.ctx.app.chats.pendingPrompts(t.session.id).budgetStop?.budget?.reached?.id).toBe(reached!.id);
    expect(planSpend(t.ctx.app.chats.getSession(t.session.id).session, plan.id)).toBeCloseTo(spent, 10);

    // A typed figure at or below the spend is refused with words, and changes nothing.
    expect(() => t.ctx.app.chat.answerBudget(t.session.id, reached!.id, { kind: 'extend', usd: spent / 2 })).toThrow(/must be more than the \$/);
    expect(t.ctx.app.plans.getPlan(t.session.id)!.budget?.reached).toBeDefined();

    expect(t.ctx.app.chat.answerBudget(t.session.id, reached!.id, { kind: 'extend', usd: 100 })).toEqual({ accepted: true });
    await t.ctx.app.idle(t.session.id);
    expect(t.server.requests.length).toBeGreaterThan(sent);
    const after = t.ctx.app.plans.getPlan(t.session.id)!;
    expect(after.budget).toEqual({ usd: 100 });
    expect(after.status).toBe('completed');
    // A second answer to the same stop is stale.
    expect(t.ctx.app.chat.answerBudget(t.session.id, reached!.id, { kind: 'end' })).toEqual({ accepted: false });
  });

  it('"End plan" ends the plan as partial and sends no further request', async () => {
    const t = await start(model, budgetFor(model, 2));
    t.ctx.app.chat.sendMessage(t.session.id, 'Do the six things');
    await t.ctx.app.idle(t.session.id);
    const reached = t.ctx.app.plans.getPlan(t.session.id)!.budget!.reached!;
    const sent = t.server.requests.length;
    expect(t.ctx.app.chat.answerBudget(t.session.id, reached.id, { kind: 'end' })).toEqual({ accepted: true });
    await new Promise((r) => setTimeout(r, 200));
    const plan = t.ctx.app.plans.getPlan(t.session.id)!;
    expect(plan.status).toBe('partial');
    expect(plan.completion?.status).toBe('partial_success');
    expect(plan.budget?.reached).toBeUndefined();
    expect(t.server.requests.length).toBe(sent);
    expect(t.ctx.app.chats.getSession(t.session.id).transcript.some((i) => i.kind === 'plan_completion')).toBe(true);
  });
});

describe('a budget lowered below the spend', () => {
  it('stops the run at its next request', async () => {
    const t = await start('claude-sonnet-4-6', 50);
    const { app } = t.ctx;
    // Lower it as soon as the plan exists: the next request is held back.
    const lowered = new Promise<void>((resolve) => {
      const sub = app.plans.onPlanUpdated(({ sessionId, plan }) => {
        if (sessionId !== t.session.id || plan.budget?.usd !== 50 || plan.summary.completed < 1) return;
        sub.dispose();
        queueMicrotask(() => {
          app.chat.setPlanBudget(t.session.id, plan.id, 0.0001);
          resolve();
        });
      });
    });
    app.chat.sendMessage(t.session.id, 'Do the six things');
    await lowered;
    const sentAtLowering = t.server.requests.length;
    await app.idle(t.session.id);
    const plan = app.plans.getPlan(t.session.id)!;
    expect(plan.budget).toMatchObject({ usd: 0.0001, reached: { limit: 'usd' } });
    // At most the request already on its way when the budget changed went out after it.
    expect(t.server.requests.length).toBeLessThanOrEqual(sentAtLowering + 1);
    expect(() => app.chat.setPlanBudget(t.session.id, plan.id, 0)).toThrow();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { startInstance } from '../../../../test-support/main/persistence-test-kit';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import type { UsageRecord } from '../model/usage-meter';
import { priceFor } from '../model/pricing';
import { planSpend } from '../model/usage-meter';

// Sub-agents and the chat's plan, through the loop, the real PlanService and the real SDK against
// scripted Claude (docs/architecture.md "Sub-agents and the chat's plan"): a sub-agent's requests
// count against the chat plan's budget and it ends before one that would pass it; a sub-agent's
// own plan completing is not goal-checked (only the chat's plan is).

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[]; tool_choice?: { type: string; name?: string } };
const firstText = (body: Body): string => {
  const first = body.messages[0]!.content;
  return typeof first === 'string' ? first : (first.find((b) => b.type === 'text')?.text ?? '');
};
/** Each agent (keyed by the start of its first user message) gets its own turns in order. */
function byAgent(scripts: Record<string, ScriptedTurn[]>) {
  const used = new Map<string, number>();
  return (raw: Record<string, unknown>): ScriptedTurn | undefined => {
    const who = firstText(raw as unknown as Body);
    const key = Object.keys(scripts).find((k) => who.startsWith(k));
    if (!key) return undefined;
    const at = used.get(key) ?? 0;
    used.set(key, at + 1);
    return scripts[key]![at] ?? { kind: 'text', text: `${key} has nothing more to say` };
  };
}
const use = (name: string, input: unknown): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name, input }] });
const planOf = (goal: string, n: number): ScriptedTurn[] => [
  use('create_plan', { goal, steps: Array.from({ length: n }, (_, i) => ({ step_number: i + 1, description: `${goal} ${i + 1}` })) }),
  ...Array.from({ length: n }, (_, i) => [
    use('update_plan', { action: 'start_step', step_number: i + 1 }),
    use('update_plan', { action: 'complete_step', step_number: i + 1, result: `part ${i + 1} done` }),
  ]).flat(),
];
const MODEL = 'claude-haiku-4-5';

async function start(scripts: Record<string, ScriptedTurn[]>, settings: Record<string, unknown>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-subplans-'));
  const server: ScriptedServer = await startScriptedServer({ scenario: { name: 'sub-plans', turns: [] }, respond: byAgent(scripts) });
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => server.close());
  const app = await startInstance(dataDir, server.url, settingsSource({ model: MODEL, planningStyle: 'structured', ...settings }));
  cleanups.push(() => app.close());
  const session = app.chats.newSession();
  const records: UsageRecord[] = [];
  app.chat.onUsage((record) => records.push(record));
  return { app, server, session, records };
}
const requestsOf = (server: ScriptedServer, who: string) => server.requests.map((r) => r.body as Body).filter((b) => firstText(b).startsWith(who));

describe("a sub-agent's requests and the chat plan's budget", () => {
  it('count in the chat plan\'s spend; the sub-agent ends before one that would pass the budget, and the chat pauses at its next request', async () => {
    // About eight requests' worth at this model's input price (each request is a few thousand tokens).
    const usd = Math.round(((priceFor(MODEL).inputPerMTok * 4_000 * 8) / 1_000_000) * 1e4) / 1e4;
    const worker = [...planOf('Worker part', 8), { kind: 'text' as const, text: 'Worker finished.' }];
    const t = await start(
      {
        'Split the work': [use('create_plan', { goal: 'Split the work', steps: [{ step_number: 1, description: 'Delegate it' }] }), use('update_plan', { action: 'start_step', step_number: 1 }), use('delegate', { task: 'worker: do the parts' }), { kind: 'text', text: 'Parent done.' }],
        worker,
      },
      { planBudgetUsd: usd },
    );
    t.app.chat.sendMessage(t.session.id, 'Split the work, please');
    await t.app.idle(t.session.id);

    const plan = t.app.plans.getPlan(t.session.id)!;
    // The sub-agent stopped well before its script ran out, and said why in its result.
    const workerSent = requestsOf(t.server, 'worker').length;
    expect(workerSent).toBeGreaterThan(0);
    expect(workerSent).toBeLessThan(worker.length);
    const agent = t.app.chats.getSession(t.session.id).subagents![0]!;
    expect(agent).toMatchObject({ status: 'failed' });
    expect(agent.result).toMatch(/chat's plan reached its budget/);
    // Its requests were metered on the chat, naming the chat's plan: they are the plan's spend.
    const workerRecords = t.records.slice(3, 3 + workerSent);
    expect(workerRecords.map((r) => [r.sessionId, r.planId])).toEqual(workerRecords.map(() => [t.session.id, plan.id]));
    // The chat's next request met the same check: the chat waits on "Budget reached", nothing more was sent.
    expect(plan.status).toBe('active');
    const reached = plan.budget!.reached!;
    expect(reached).toMatchObject({ limit: 'usd' });
    const spent = planSpend(t.app.chats.getSession(t.session.id).session, plan.id);
    expect(spent).toBeCloseTo(t.records.filter((r) => r.planId === plan.id).reduce((sum, r) => sum + r.usage.costUsd, 0), 10);
    expect(spent).toBeLessThanOrEqual(usd + reached.estimateUsd);
    expect(t.server.requests.length).toBe(3 + workerSent);
  });
});

describe("a sub-agent's own plan", () => {
  it('is not goal-checked when it completes: only the chat\'s plan is', async () => {
    const t = await start(
      {
        'Split the work': [use('create_plan', { goal: 'Split the work', steps: [{ step_number: 1, description: 'Delegate it' }] }), use('update_plan', { action: 'start_step', step_number: 1 }), use('delegate', { task: 'worker: do the parts' }), use('update_plan', { action: 'complete_step', step_number: 1, result: 'delegated' }), { kind: 'text', text: 'Parent done.' }],
        worker: [...planOf('Worker part', 1), { kind: 'text', text: 'Worker finished.' }],
      },
      { goalChecks: 1 },
    );
    t.app.chat.sendMessage(t.session.id, 'Split the work, please');
    await t.app.idle(t.session.id);
    const checks = t.server.requests.map((r) => r.body as Body).filter((b) => b.tool_choice?.type === 'tool');
    // One check: the chat's plan's, after it completed; none for the worker's plan.
    expect(checks).toHaveLength(1);
    expect(JSON.stringify(checks[0]!.messages)).toContain('Split the work');
    expect(JSON.stringify(checks[0]!.messages)).not.toContain('Worker part');
    expect(t.app.chats.getSession(t.session.id).subagents![0]).toMatchObject({ status: 'done' });
  });
});

import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import type { SessionSummary } from '../../shared/transcript';
import { planChangeItems } from '../../shared/plan-change';
import { completePlan } from '../plan/engine/close-plan';
import { createPlan } from '../plan/engine/create-plan';
import { defaultEngineOptions } from '../plan/engine/engine-types';
import { EventPump, type TickSchedule } from './event-pump';

const options = defaultEngineOptions();

function planAt(version: number, id = 'p1'): Plan {
  const made = createPlan({ id, dialect: 'structured', goal: 'Ship', steps: [{ title: 'Only step' }] }, version - 1, options);
  if (!made.ok) throw new Error(made.error);
  return made.plan;
}
const planEvent = (sessionId: string, version: number, plan = planAt(version)): WaypointEvent => ({
  type: 'plan_updated',
  sessionId,
  plan,
  change: { kind: 'planning', by: 'claude', summary: `change ${version}` },
});
const delta = (sessionId: string, itemId: string, text: string): WaypointEvent => ({ type: 'message_delta', sessionId, itemId, text });
const running = (sessionId: string, phase: 'requesting' | 'streaming' | 'tools' = 'tools'): WaypointEvent => ({ type: 'run_state', sessionId, state: { status: 'running', phase } });
const done = (sessionId: string, itemId = 'a'): WaypointEvent => ({ type: 'message_done', sessionId, itemId, stopReason: 'end_turn' });
const summary = (sessionId: string, title: string, planProgress?: SessionSummary['planProgress']): WaypointEvent => ({
  type: 'session_updated',
  session: { id: sessionId, title, createdAt: '2026-11-27T00:00:00.000Z', updatedAt: '2026-11-27T00:00:00.000Z', ...(planProgress ? { planProgress } : {}) },
});

/** A tick the test ends by hand. */
function manualTick() {
  const pending: Array<() => void> = [];
  const schedule: TickSchedule = (run) => {
    pending.push(run);
    return () => pending.splice(pending.indexOf(run), 1);
  };
  return { schedule, end: () => pending.splice(0).forEach((run) => run()) };
}

function pumpWith(deltaFlushMs = 1_000_000) {
  const tick = manualTick();
  const pump = new EventPump({ schedule: tick.schedule, deltaFlushMs });
  const sent: WaypointEvent[] = [];
  pump.onEvent((e) => sent.push(e));
  return { pump, sent, tick };
}

const describeSent = (sent: WaypointEvent[]) =>
  sent.map((e) =>
    e.type === 'plan_updated'
      ? `plan ${e.sessionId} v${e.plan.version}${e.folded ? ` (+${e.folded.length})` : ''}`
      : e.type === 'message_delta'
        ? `text ${e.itemId} "${e.text}"`
        : e.type === 'run_state'
          ? `run ${e.sessionId} ${e.state.status === 'running' ? e.state.phase : e.state.status}`
          : e.type === 'session_updated'
            ? `summary ${e.session.id} ${e.session.title}`
            : e.type,
  );

describe('event pump', () => {
  it('folds a burst of plan updates into the newest at the end of the tick, keeping every change for its transcript line', () => {
    const { pump, sent, tick } = pumpWith();
    for (let v = 1; v <= 30; v++) pump.push(planEvent('s1', v));
    expect(sent).toEqual([]);
    tick.end();
    expect(describeSent(sent)).toEqual(['plan s1 v30 (+29)']);
    const [update] = sent;
    if (update?.type !== 'plan_updated') throw new Error('no plan');
    expect(update.folded?.map((f) => f.version)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
    // The receiver derives exactly the lines it would have derived from the 30 events.
    expect(planChangeItems(null, update).map((i) => (i.kind === 'plan_change' ? i.text : ''))).toEqual(
      Array.from({ length: 30 }, (_, i) => `change ${i + 1}`),
    );
  });

  it('sends what a chat holds before any other event of that chat, and everything before an app-wide event', () => {
    const { pump, sent, tick } = pumpWith();
    pump.push(planEvent('s1', 1));
    pump.push(planEvent('s2', 4));
    pump.push(planEvent('s1', 2));
    pump.push(done('s1'));
    expect(describeSent(sent)).toEqual(['plan s1 v2 (+1)', 'message_done']);
    pump.push({ type: 'mcp_state', servers: [] });
    expect(describeSent(sent)).toEqual(['plan s1 v2 (+1)', 'message_done', 'plan s2 v4', 'mcp_state']);
    tick.end();
    expect(sent).toHaveLength(4);
  });

  it("at the end of a reply's tick its plan goes out ahead of the reply's bookkeeping, and the summary it overtook carries its progress", () => {
    const { pump, sent, tick } = pumpWith();
    // What main makes at a reply's end, in one tick: the usage, the "tools" phase, then the planning calls.
    pump.push(summary('s1', 'Costed', { completed: 0, total: 1, status: 'active', paused: true }));
    pump.push(running('s1', 'tools'));
    for (let v = 1; v <= 4; v++) pump.push(planEvent('s1', v));
    expect(sent).toEqual([]);
    tick.end();
    expect(describeSent(sent)).toEqual(['plan s1 v4 (+3)', 'summary s1 Costed', 'run s1 tools']);
    const [plan, session] = sent;
    if (plan?.type !== 'plan_updated' || session?.type !== 'session_updated') throw new Error('wrong events');
    // What the page computes from the plan, the pause kept while the plan is unfinished.
    expect(session.session.planProgress).toEqual({ completed: plan.plan.summary.completed, total: plan.plan.summary.total, status: plan.plan.status, paused: true });
  });

  it('holds bookkeeping no later than the next event of its chat and loses none of it: every run state in order, the newest summary, text before them', () => {
    const { pump, sent, tick } = pumpWith();
    pump.push(delta('s1', 'a', 'Hi'));
    pump.push(running('s1', 'requesting'));
    pump.push(summary('s1', 'First'));
    pump.push(running('s1', 'streaming'));
    pump.push(summary('s1', 'Second'));
    pump.push(running('s2', 'tools'));
    expect(sent).toEqual([]);
    pump.push(done('s1'));
    expect(describeSent(sent)).toEqual(['text a "Hi"', 'run s1 requesting', 'summary s1 Second', 'run s1 streaming', 'message_done']);
    tick.end();
    expect(describeSent(sent).slice(5)).toEqual(['run s2 tools']);
    // A summary after the plan is newer than it: sent as main made it, after the plan.
    pump.push(planEvent('s1', 1));
    pump.push(summary('s1', 'After', { completed: 9, total: 9, status: 'done' }));
    tick.end();
    expect(describeSent(sent).slice(6)).toEqual(['plan s1 v1', 'summary s1 After']);
    const last = sent.at(-1);
    expect(last?.type === 'session_updated' && last.session.planProgress).toEqual({ completed: 9, total: 9, status: 'done' });
  });

  it('does not fold across another plan or across a completion', () => {
    const { pump, sent, tick } = pumpWith();
    pump.push(planEvent('s1', 1));
    pump.push(planEvent('s1', 2, planAt(2, 'p2')));
    const active = planAt(3, 'p2');
    const closed = closePlanned(active);
    pump.push(planEvent('s1', closed.version, closed));
    tick.end();
    expect(describeSent(sent)).toEqual(['plan s1 v1', 'plan s1 v2', `plan s1 v${closed.version}`]);
  });

  it('joins streamed text per message and sends it on its timer, or before the next event of its chat', async () => {
    const { pump, sent } = pumpWith(20);
    pump.push(delta('s1', 'a', 'Hel'));
    pump.push(delta('s2', 'b', 'Other'));
    pump.push(delta('s1', 'a', 'lo'));
    expect(sent).toEqual([]);
    await new Promise((r) => setTimeout(r, 60));
    expect(describeSent(sent)).toEqual(['text a "Hello"', 'text b "Other"']);
    pump.push(delta('s1', 'a', ' world'));
    pump.push({ type: 'message_done', sessionId: 's1', itemId: 'a', stopReason: 'end_turn' });
    expect(describeSent(sent).slice(2)).toEqual(['text a " world"', 'message_done']);
    pump.dispose();
  });

  it('flush() sends everything now; dispose drops what is held', () => {
    const { pump, sent, tick } = pumpWith();
    pump.push(delta('s1', 'a', 'x'));
    pump.push(planEvent('s1', 1));
    pump.flush();
    expect(describeSent(sent)).toEqual(['text a "x"', 'plan s1 v1']);
    pump.push(planEvent('s1', 2));
    pump.dispose();
    tick.end();
    expect(sent).toHaveLength(2);
  });
});

function closePlanned(plan: Plan): Plan {
  const closed = completePlan(plan, { status: 'success', summary: 'Done', issues: [] }, options);
  if (!closed.ok) throw new Error(closed.error);
  return closed.plan;
}

import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import type { SubAgent } from '../../shared/subagents';
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
const running = (sessionId: string): WaypointEvent => ({ type: 'run_state', sessionId, state: { status: 'running', phase: 'tools' } });

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
    e.type === 'plan_updated' ? `plan ${e.sessionId} v${e.plan.version}${e.folded ? ` (+${e.folded.length})` : ''}` : e.type === 'message_delta' ? `text ${e.itemId} "${e.text}"` : e.type,
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
    pump.push(running('s1'));
    expect(describeSent(sent)).toEqual(['plan s1 v2 (+1)', 'run_state']);
    pump.push({ type: 'mcp_state', servers: [] });
    expect(describeSent(sent)).toEqual(['plan s1 v2 (+1)', 'run_state', 'plan s2 v4', 'mcp_state']);
    tick.end();
    expect(sent).toHaveLength(4);
  });

  it('does not fold across another plan or across a completion', () => {
    const { pump, sent, tick } = pumpWith();
    pump.push(planEvent('s1', 1));
    pump.push(planEvent('s1', 2, planAt(2, 'p2')));
    const active = planAt(3, 'p2');
    const closed = closePlanned(active);
    pump.push(planEvent('s1', closed.version, closed));
    expect(sent).toEqual([]); // all three leave together, in order, at the end of the tick
    tick.end();
    expect(describeSent(sent)).toEqual(['plan s1 v1', 'plan s1 v2', `plan s1 v${closed.version}`]);
  });

  it('sends a turn as one batch: its events, and the plans held for the tick with them', async () => {
    const pump = new EventPump({ deltaFlushMs: 1_000_000 }); // the real end of the tick
    const batches: string[][] = [];
    pump.onBatch((events) => batches.push(describeSent(events)));
    pump.push(running('s1'));
    await Promise.resolve(); // the reply's tools, run in the same turn
    for (let v = 1; v <= 3; v++) pump.push(planEvent('s1', v));
    expect(batches).toEqual([]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(batches).toEqual([['run_state', 'plan s1 v3 (+2)']]);
    // A turn with only a plan sends it at the end of the tick, on its own.
    pump.push(planEvent('s1', 4));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => process.nextTick(resolve));
    expect(batches.slice(1)).toEqual([['plan s1 v4']]);
    // flush (before a call's result) sends the batch at once.
    pump.push(running('s1'));
    pump.flush();
    expect(batches.slice(2)).toEqual([['run_state']]);
    pump.dispose();
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

  it('sends only the newest snapshot of a sub-agent changed several times in a tick, in the place of its last change', () => {
    // Issue 26: a sub-agent's reply that starts and completes a step made two whole snapshots
    // (its plan in each), two frames and two renderer commits where the second holds all of the first.
    const { pump, sent, tick } = pumpWith();
    pump.push(agentEvent('s1', 'a', 1));
    pump.push(agentEvent('s1', 'b', 1));
    pump.push(agentEvent('s1', 'a', 2));
    pump.push(agentEvent('s2', 'c', 1));
    expect(sent).toEqual([]);
    tick.end();
    expect(describeAgents(sent)).toEqual(['s1 b 1', 's1 a 2', 's2 c 1']);
    // Any other event of the chat sends what it holds first, so the order within a chat is kept.
    pump.push(agentEvent('s1', 'a', 3));
    pump.push(running('s1'));
    pump.push(agentEvent('s1', 'a', 4));
    pump.push({ type: 'mcp_state', servers: [] });
    expect(describeAgents(sent).slice(3)).toEqual(['s1 a 3', 'run_state', 's1 a 4', 'mcp_state']);
    tick.end();
    expect(sent).toHaveLength(7);
  });

  it("keeps a sub-agent's lines in the tick with its snapshots: a reply that starts and completes a step is its lines and one snapshot", () => {
    // Each plan change of a sub-agent is a line of its card and a new snapshot. Sent as they came,
    // every line pushed the snapshot before it out: two whole snapshots (two frames, two renderer
    // commits) for one reply again.
    const { pump, sent, tick } = pumpWith();
    pump.push(agentEvent('s1', 'a', 1));
    pump.push(agentLine('s1', 'a', 'Started step 1'));
    pump.push(agentEvent('s1', 'a', 2));
    pump.push(agentLine('s1', 'a', 'Completed step 1'));
    pump.push(agentEvent('s1', 'a', 3));
    expect(sent).toEqual([]);
    tick.end();
    expect(describeAgents(sent)).toEqual(['line a Started step 1', 'line a Completed step 1', 's1 a 3']);
    // Lines keep their order with everything else of the chat.
    pump.push(agentLine('s1', 'a', 'Read notes.md'));
    pump.push(running('s1'));
    expect(describeAgents(sent).slice(3)).toEqual(['line a Read notes.md', 'run_state']);
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

/** A sub-agent's snapshot; `completed` stands for how far its plan is (a new snapshot each change). */
function agentEvent(sessionId: string, id: string, completed: number): WaypointEvent {
  const subagent: SubAgent = { id, parentToolUseId: `toolu_${id}`, title: `Agent ${id}`, depth: 1, stepId: null, status: 'working', plan: null, result: `${completed}` };
  return { type: 'subagent_updated', sessionId, subagent };
}
const agentLine = (sessionId: string, agentId: string, text: string): WaypointEvent => ({ type: 'subagent_line', sessionId, agentId, line: { kind: 'plan', text } });
const describeAgents = (sent: WaypointEvent[]) =>
  sent.map((e) => (e.type === 'subagent_updated' ? `${e.sessionId} ${e.subagent.id} ${e.subagent.result}` : e.type === 'subagent_line' ? `line ${e.agentId} ${e.line.text}` : e.type));

function closePlanned(plan: Plan): Plan {
  const closed = completePlan(plan, { status: 'success', summary: 'Done', issues: [] }, options);
  if (!closed.ok) throw new Error(closed.error);
  return closed.plan;
}

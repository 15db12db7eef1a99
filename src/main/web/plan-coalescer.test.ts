import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { createPlan } from '../plan/engine/create-plan';
import { defaultEngineOptions } from '../plan/engine/engine-types';
import { createPlanCoalescer, type TickSchedule } from './plan-coalescer';
import { startWebShell, type WebShell } from './server';
import { frameCollector, wsConnect } from './web-test-client';
import { createTestServices } from './web-test-services';

const T = new Date(0).toISOString();

function planAt(version: number): Plan {
  const made = createPlan({ id: 'p1', dialect: 'structured', goal: 'Ship', steps: [{ title: 'Only step' }] }, version - 1, defaultEngineOptions());
  if (!made.ok) throw new Error(made.error);
  return made.plan;
}
const planEvent = (sessionId: string, version: number): WaypointEvent => ({ type: 'plan_updated', sessionId, version, plan: planAt(version) });
const changeLine = (sessionId: string, n: number): WaypointEvent => ({
  type: 'transcript_item',
  sessionId,
  item: { id: `c${n}`, kind: 'plan_change', createdAt: T, text: `Updated plan: change ${n}`, version: n },
});
const progress = (sessionId: string): WaypointEvent => ({ type: 'session_updated', session: { id: sessionId, title: 'Chat', createdAt: T, updatedAt: T } });
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

const describeSent = (sent: WaypointEvent[]) => sent.map((e) => (e.type === 'plan_updated' ? `plan ${e.sessionId} v${e.version}` : `${e.type}`));

describe('plan coalescer', () => {
  it('sends only the newest plan of a burst at the end of the tick; the plan-change lines pass in order', () => {
    const tick = manualTick();
    const sent: WaypointEvent[] = [];
    const coalescer = createPlanCoalescer((e) => sent.push(e), tick.schedule);
    for (let v = 1; v <= 30; v++) {
      coalescer.push(changeLine('s1', v));
      coalescer.push(progress('s1'));
      coalescer.push(planEvent('s1', v));
    }
    expect(sent.filter((e) => e.type === 'plan_updated')).toEqual([]);
    expect(sent.filter((e) => e.type === 'transcript_item').map((e) => (e.type === 'transcript_item' ? e.item.id : ''))).toEqual(
      Array.from({ length: 30 }, (_, i) => `c${i + 1}`),
    );
    tick.end();
    expect(describeSent(sent.filter((e) => e.type === 'plan_updated'))).toEqual(['plan s1 v30']);
    expect(sent).toHaveLength(61);
  });

  it('sends a held plan before any other event of its session, and keeps other sessions held', () => {
    const tick = manualTick();
    const sent: WaypointEvent[] = [];
    const coalescer = createPlanCoalescer((e) => sent.push(e), tick.schedule);
    coalescer.push(planEvent('s1', 1));
    coalescer.push(planEvent('s2', 4));
    coalescer.push(planEvent('s1', 2));
    coalescer.push(running('s1'));
    expect(describeSent(sent)).toEqual(['plan s1 v2', 'run_state']);
    coalescer.push({ type: 'mcp_state', servers: [] }); // app-wide: everything held goes first
    expect(describeSent(sent)).toEqual(['plan s1 v2', 'run_state', 'plan s2 v4', 'mcp_state']);
    tick.end();
    expect(sent).toHaveLength(4);
  });

  it('never sends a plan backwards within a tick, and dispose drops what is held', () => {
    const tick = manualTick();
    const sent: WaypointEvent[] = [];
    const coalescer = createPlanCoalescer((e) => sent.push(e), tick.schedule);
    coalescer.push(planEvent('s1', 5));
    coalescer.push(planEvent('s1', 3));
    tick.end();
    expect(describeSent(sent)).toEqual(['plan s1 v5']);
    coalescer.push(planEvent('s1', 6));
    coalescer.dispose();
    tick.end();
    expect(sent).toHaveLength(1);
  });
});

describe('web shell: plan_updated coalescing over a real WebSocket', () => {
  let dir: string;
  let shell: WebShell;
  let services: ReturnType<typeof createTestServices>;
  let socket: WebSocket;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'waypoint-coalesce-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html>');
    services = createTestServices();
    shell = await startWebShell({ services, staticDir: dir, port: 0 });
    const outcome = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${shell.token}`, { origin: `http://127.0.0.1:${shell.port}` });
    if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
    socket = outcome.socket;
  });
  afterAll(async () => {
    socket.terminate();
    await shell.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a burst of 200 updates in one tick arrives as one plan frame, ahead of the run_state that follows, nothing else dropped', async () => {
    const frames = frameCollector(socket);
    for (let v = 1; v <= 200; v++) {
      services.events.fire(changeLine('s1', v));
      services.events.fire(planEvent('s1', v));
    }
    services.events.fire(running('s1'));
    // Then a second burst in a later tick: its plan goes out on its own.
    await new Promise((resolve) => setImmediate(resolve));
    services.events.fire(planEvent('s1', 201));
    await frames.next((f) => f.kind === 'event' && f.event.type === 'plan_updated' && f.event.version === 201);
    const events = frames.frames.flatMap((f) => (f.kind === 'event' ? [f.event] : []));
    expect(events.filter((e) => e.type === 'transcript_item')).toHaveLength(200);
    expect(describeSent(events).slice(-3)).toEqual(['plan s1 v200', 'run_state', 'plan s1 v201']);
    expect(events.filter((e) => e.type === 'plan_updated')).toHaveLength(2);
    const last = events.at(-1);
    expect(last?.type === 'plan_updated' && last.plan.version).toBe(201);
  });
});

import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plan';
import { MemoryBackend } from '../test-support/memory-backend';
import { plan, session, step } from '../test-support/fixtures';
import { connectStore } from './connect';
import { createWaypointStore } from './create-store';
import type { Schedule } from './delta-batcher';
import { createPlanBatcher, type PlanTraffic } from './plan-batcher';

/** Animation frames the test runs by hand. */
function manualFrames() {
  const frames: Array<() => void> = [];
  const schedule: Schedule = (flush) => {
    frames.push(flush);
    return () => {
      const at = frames.indexOf(flush);
      if (at >= 0) frames.splice(at, 1);
    };
  };
  return { schedule, run: () => frames.splice(0).forEach((f) => f()), pending: () => frames.length };
}

const version = (v: number, title = `v${v}`): Plan => plan([step(1, title, v % 2 ? 'in_progress' : 'pending')], { version: v });
const planEvent = (sessionId: string, v: number, title?: string): PlanTraffic => ({ type: 'plan_updated', sessionId, version: v, plan: version(v, title) });
const line = (sessionId: string, v: number): PlanTraffic => ({
  type: 'transcript_item',
  sessionId,
  item: { id: `c${v}`, kind: 'plan_change', createdAt: 'x', text: `change ${v}`, version: v },
});
const sidebar = (id: string, title: string): PlanTraffic => ({ type: 'session_updated', session: session(id, title) });
const label = (e: PlanTraffic) =>
  e.type === 'plan_updated' ? `${e.sessionId}:v${e.version}` : e.type === 'session_updated' ? `side:${e.session.title}` : `line:${e.item.id}`;

describe('plan batcher', () => {
  it('applies a lone update at once, then holds plan traffic in order for the next frame, keeping the newest plan per session', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const batcher = createPlanBatcher((e) => applied.push(label(e)), frames.schedule);
    batcher.push(line('a', 1));
    batcher.push(sidebar('a', 'one'));
    batcher.push(planEvent('a', 1));
    expect(applied).toEqual(['line:c1', 'side:one', 'a:v1']); // no waiting when nothing else is going on
    for (let v = 2; v <= 40; v++) {
      batcher.push(line('a', v));
      batcher.push(sidebar('a', `s${v}`));
      batcher.push(planEvent('a', v));
    }
    batcher.push(planEvent('b', 7));
    batcher.push(planEvent('a', 12)); // older than the held v40: never go back
    expect(applied).toHaveLength(3);
    frames.run();
    const batch = applied.slice(3);
    expect(batch.filter((l) => l.startsWith('line:'))).toEqual(Array.from({ length: 39 }, (_, i) => `line:c${i + 2}`));
    expect(batch.slice(-3)).toEqual(['side:s40', 'a:v40', 'b:v7']);
    expect(batch).toHaveLength(39 + 3);

    batcher.push(planEvent('a', 41));
    batcher.push(planEvent('a', 42));
    expect(applied).toHaveLength(45); // this frame already had a batch
    frames.run();
    expect(applied.slice(45)).toEqual(['a:v42']);
    frames.run(); // an idle frame ends the throttling
    expect(frames.pending()).toBe(0);
    batcher.push(planEvent('a', 43));
    expect(applied.at(-1)).toBe('a:v43');
  });

  it('flush applies what is held right away; dispose drops it and cancels the frame', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const batcher = createPlanBatcher((e) => applied.push(label(e)), frames.schedule);
    batcher.push(planEvent('a', 1));
    batcher.push(line('a', 2));
    batcher.push(planEvent('a', 2));
    batcher.flush();
    expect(applied).toEqual(['a:v1', 'line:c2', 'a:v2']);
    batcher.push(planEvent('a', 3));
    batcher.dispose();
    frames.run();
    expect(applied).toHaveLength(3);
    expect(frames.pending()).toBe(0);
  });
});

describe('connectStore with a burst of plan updates', () => {
  it('commits one batch per frame, keeps every plan-change line, and ends on the engine’s final plan', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const frames = manualFrames();
    const store = createWaypointStore(backend);
    const off = connectStore(backend, store, { schedule: frames.schedule, retryDelayMs: () => 10 });
    while (store.getState().load.status !== 'ready') await new Promise((r) => setTimeout(r, 5));
    frames.run();

    for (let v = 1; v <= 500; v++) {
      backend.emit(line('s1', v));
      backend.emit(planEvent('s1', v, `Step at v${v}`));
    }
    expect(store.getState().plans.s1?.version).toBe(1);
    expect(store.getState().transcripts.s1?.map((i) => i.id)).toEqual(['c1']); // the rest waits for the frame
    frames.run();
    expect(store.getState().transcripts.s1?.map((i) => i.id)).toEqual(Array.from({ length: 500 }, (_, i) => `c${i + 1}`));
    expect(store.getState().plans.s1?.version).toBe(500);
    expect(store.getState().plans.s1?.steps[0]?.title).toBe('Step at v500');

    // An escalation must see the newest plan: held traffic is applied before it.
    backend.emit(planEvent('s1', 501, 'Failing step'));
    backend.emit({
      type: 'escalation_requested',
      sessionId: 's1',
      request: { id: 'e1', sessionId: 's1', stepId: 1, stepTitle: 'Failing step', toolName: 'run_command', error: 'boom', errorClass: 'unknown', attempts: [], createdAt: 'x' },
    });
    expect(store.getState().plans.s1?.version).toBe(501);
    expect(store.getState().escalations.s1?.id).toBe('e1');
    off();
  });
});

import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plan';
import { MemoryBackend } from '../test-support/memory-backend';
import { plan, step } from '../test-support/fixtures';
import { connectStore } from './connect';
import { createWaypointStore } from './create-store';
import type { Schedule } from './frame-schedule';
import { createPlanBatcher, type PlanUpdated } from './plan-batcher';

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
const planEvent = (sessionId: string, v: number, title?: string): PlanUpdated => ({
  type: 'plan_updated',
  sessionId,
  plan: version(v, title),
  change: { kind: 'planning', by: 'claude', summary: `change ${v}` },
});
const label = (e: PlanUpdated) => `${e.sessionId}:v${e.plan.version}${e.folded ? `+${e.folded.map((f) => f.version).join(',')}` : ''}`;

describe('plan batcher', () => {
  it('applies a lone update at once, then holds updates for the next frame, folded per chat', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const batcher = createPlanBatcher((e) => applied.push(label(e)), frames.schedule);
    batcher.push(planEvent('b', 6));
    frames.run();
    frames.run();
    applied.length = 0;
    batcher.push(planEvent('a', 1));
    expect(applied).toEqual(['a:v1']); // no waiting when nothing else is going on
    for (let v = 2; v <= 5; v++) batcher.push(planEvent('a', v));
    batcher.push(planEvent('b', 7));
    expect(applied).toHaveLength(1);
    frames.run();
    expect(applied.slice(1)).toEqual(['a:v5+2,3,4', 'b:v7']);

    batcher.push(planEvent('a', 6));
    batcher.push(planEvent('a', 7));
    expect(applied).toHaveLength(3); // this frame already had a batch
    frames.run();
    expect(applied.slice(3)).toEqual(['a:v7+6']);
    frames.run(); // an idle frame ends the throttling
    expect(frames.pending()).toBe(0);
    batcher.push(planEvent('a', 8));
    expect(applied.at(-1)).toBe('a:v8');
  });

  it('applies a new plan, a completion and a chat\'s first plan at once, after what is held', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const batcher = createPlanBatcher((e) => applied.push(`${label(e)}${e.plan.completion ? ' done' : ''}`), frames.schedule);
    batcher.push(planEvent('a', 1));
    batcher.push(planEvent('a', 2));
    expect(applied).toEqual(['a:v1']);
    // The old plan's last change is held; the next plan (another id) comes in the same turn.
    const next: PlanUpdated = { ...planEvent('a', 1), plan: { ...version(1), id: 'plan-2' } };
    batcher.push(next);
    expect(applied).toEqual(['a:v1', 'a:v2', 'a:v1']); // in order, nothing waits for the frame
    batcher.push({ ...next, plan: { ...next.plan, version: 2 } });
    expect(applied).toHaveLength(3); // changes of the plan shown wait for the frame again
    const done: PlanUpdated = { ...next, plan: { ...next.plan, version: 3, completion: { status: 'success', summary: 'all done', issues: [] } } };
    batcher.push(done);
    expect(applied.slice(3)).toEqual(['a:v2', 'a:v3 done']);
    batcher.push(planEvent('c', 4)); // a chat this page has not shown a plan for
    expect(applied.at(-1)).toBe('c:v4');
    frames.run();
    frames.run();
    expect(applied).toHaveLength(6);
  });

  it('flush applies what is held right away; dispose drops it and cancels the frame', () => {
    const frames = manualFrames();
    const applied: string[] = [];
    const batcher = createPlanBatcher((e) => applied.push(label(e)), frames.schedule);
    batcher.push(planEvent('a', 1));
    batcher.push(planEvent('a', 2));
    batcher.flush();
    expect(applied).toEqual(['a:v1', 'a:v2']);
    batcher.push(planEvent('a', 3));
    batcher.dispose();
    frames.run();
    expect(applied).toHaveLength(2);
    expect(frames.pending()).toBe(0);
  });
});

describe('connectStore with a burst of plan updates', () => {
  it('commits one batch per frame, derives every plan-change line and the sidebar progress, and ends on the final plan', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const frames = manualFrames();
    const store = createWaypointStore(backend);
    const off = connectStore(backend, store, { schedule: frames.schedule, retryDelayMs: () => 10 });
    while (store.getState().load.status !== 'ready') await new Promise((r) => setTimeout(r, 5));
    frames.run();

    for (let v = 1; v <= 500; v++) backend.emit(planEvent('s1', v, `Step at v${v}`));
    const lines = () => store.getState().transcripts.s1?.items.flatMap((i) => (i.kind === 'plan_change' ? [i.text] : []));
    expect(store.getState().plans.s1?.version).toBe(1);
    expect(lines()).toEqual(['change 1']); // the rest waits for the frame
    frames.run();
    expect(lines()).toEqual(Array.from({ length: 500 }, (_, i) => `change ${i + 1}`));
    expect(store.getState().plans.s1?.version).toBe(500);
    expect(store.getState().plans.s1?.steps[0]?.title).toBe('Step at v500');
    expect(store.getState().sessions.find((s) => s.id === 's1')?.planProgress).toEqual({ completed: 0, total: 1, status: 'active' });

    // An escalation must see the newest plan: held updates are applied before it.
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

import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, planHarness } from '../../../../test-support/main/plan-test-kit';

const steps = ['Create preferences model', 'Add database migration', 'Implement GET /preferences endpoint', 'Implement PUT /preferences endpoint', 'Add input validation', 'Write tests'];
const list = (done: number) => steps.map((step, i) => ({ step, status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending' }));

describe('checklist dialect', () => {
  let h = planHarness();
  afterEach(() => {
    h.cleanup();
    h = planHarness();
  });

  it('answers {success, version, summary} exactly like the seed and keeps ids stable', async () => {
    const first = await h.must('checklist', 'update_plan', { explanation: 'Add user preferences endpoint', plan: list(0) });
    expect(JSON.parse(first)).toEqual({ success: true, version: 1, summary: { total: 6, completed: 0, in_progress: 1, pending: 5 } });
    const second = JSON.parse(await h.must('checklist', 'update_plan', { plan: list(1) }));
    expect(second).toEqual({ success: true, version: 2, summary: { total: 6, completed: 1, in_progress: 1, pending: 4 } });
    const plan = h.service.getPlan('s1');
    expect(plan?.summary.percent).toBe(17);
    expect(plan?.steps.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(plan?.explanation).toBe('Add user preferences endpoint');
    expect(h.events[1]?.change.summary).toBe('Updated plan: step 1 completed, step 2 started');
  });

  it('runs to completion, then a new list reopens it', async () => {
    for (let i = 0; i <= 6; i++) await h.must('checklist', 'update_plan', { plan: list(i) });
    expect(h.service.getPlan('s1')?.status).toBe('completed');
    await h.must('checklist', 'update_plan', { plan: [...list(6), { step: 'Update docs', status: 'in_progress' }] });
    expect(h.service.getPlan('s1')).toMatchObject({ status: 'active', version: 8 });
    expect(h.service.getPlan('s1')?.steps.at(-1)?.id).toBe(7);
  });

  it('rejects invalid lists with the plan unchanged and no event', async () => {
    await h.must('checklist', 'update_plan', { plan: list(0) });
    const before = h.service.getPlan('s1');
    const cases: [unknown, RegExp][] = [
      [{ plan: [] }, /1-12 steps/],
      [{ plan: Array.from({ length: 13 }, (_, i) => ({ step: `s${i}`, status: 'pending' })) }, /at most 12 steps/],
      [{ plan: [{ step: 'a', status: 'in_progress' }, { step: 'b', status: 'in_progress' }] }, /At most 1 step may be in progress/],
      [{ plan: [{ step: '   ', status: 'pending' }] }, /Step 1 is empty/],
      [{ plan: [{ step: 'a', status: 'done' }] }, /plan.0.status/],
      [{}, /plan:/],
    ];
    for (const [input, message] of cases) expect(errorOf(await h.call('checklist', 'update_plan', input))).toMatch(message);
    expect(h.service.getPlan('s1')).toBe(before);
    expect(h.events).toHaveLength(1);
  });

  it('an identical list changes nothing', async () => {
    await h.must('checklist', 'update_plan', { plan: list(0) });
    expect(JSON.parse(await h.must('checklist', 'update_plan', { plan: list(0) })).version).toBe(1);
    expect(h.events).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, planHarness } from '../../../../test-support/main/plan-test-kit';

describe('session dialect', () => {
  let h = planHarness();
  afterEach(() => {
    h.cleanup();
    h = planHarness();
  });

  it('sets up, adds with continuing ids, updates and auto-completes', async () => {
    const setup = JSON.parse(await h.must('session', 'planning_setup_plan', { objective: 'Ship v1', initial_steps: ['Write code', 'Test'] }));
    expect(setup).toEqual({ objective: 'Ship v1', status: 'active', steps: [{ step_id: 1, title: 'Write code', status: 'pending' }, { step_id: 2, title: 'Test', status: 'pending' }] });
    const added = JSON.parse(await h.must('session', 'planning_add_step', { steps: ['Release'] }));
    expect(added.steps[2]).toEqual({ step_id: 3, title: 'Release', status: 'pending' });
    await h.must('session', 'planning_update_step', { step_id: 1, status: 'in_progress', title: 'Write the code' });
    expect(h.events.at(-1)?.change.summary).toBe('Updated plan: step 1 renamed and started');
    await h.must('session', 'planning_update_step', { step_id: 1, status: 'pending' });
    // "Test" is a verification step: done only after a check made while it is in progress.
    await h.must('session', 'planning_update_step', { step_id: 2, status: 'in_progress' });
    expect(errorOf(await h.call('session', 'planning_update_step', { step_id: 2, status: 'done' }))).toMatch(/verification step/);
    h.service.recordToolCall('s1', 2, { at: '2025-01-19T14:31:00.000Z', tool: 'run_command', summary: 'Run npm test', durationMs: 900, ok: true });
    for (const id of [1, 2, 3]) await h.must('session', 'planning_update_step', { step_id: id, status: 'done' });
    const read = JSON.parse(await h.must('session', 'planning_read_plan', {}));
    expect(read.status).toBe('completed');
    expect(read.steps.every((s: { status: string }) => s.status === 'done')).toBe(true);
    expect(h.service.getPlan('s1')?.status).toBe('completed');
  });

  it('fails clearly without a plan, on a completed plan and on bad updates', async () => {
    expect(errorOf(await h.call('session', 'planning_read_plan', {}))).toMatch(/Call planning_setup_plan first/);
    expect(errorOf(await h.call('session', 'planning_add_step', { steps: ['x'] }))).toMatch(/Call planning_setup_plan first/);
    expect(errorOf(await h.call('session', 'planning_update_step', { step_id: 1, status: 'done' }))).toMatch(/planning_setup_plan first/);
    await h.must('session', 'planning_setup_plan', { objective: 'o', initial_steps: ['a'] });
    expect(errorOf(await h.call('session', 'planning_update_step', { step_id: 1 }))).toMatch(/give title, status, or both/);
    expect(errorOf(await h.call('session', 'planning_update_step', { step_id: 1, title: 'x'.repeat(501) }))).toMatch(/limit is 500/);
    expect(errorOf(await h.call('session', 'planning_update_step', { step_id: 7, status: 'done' }))).toMatch(/Step 7 does not exist/);
    expect(errorOf(await h.call('session', 'planning_add_step', { steps: [] }))).toMatch(/at least one step/);
    expect(errorOf(await h.call('session', 'planning_setup_plan', { objective: '  ' }))).toBe('Objective must not be empty.');
    await h.must('session', 'planning_update_step', { step_id: 1, status: 'done' });
    const events = h.events.length;
    expect(errorOf(await h.call('session', 'planning_add_step', { steps: ['more'] }))).toMatch(/is completed.*planning_setup_plan/);
    expect(errorOf(await h.call('session', 'planning_update_step', { step_id: 1, status: 'pending' }))).toMatch(/is completed/);
    expect(h.events.length).toBe(events);
  });

  it('refuses a blank objective and one over 500 characters, as the reference implementation does, leaving the plan as it was', async () => {
    await h.must('session', 'planning_setup_plan', { objective: 'Keep me', initial_steps: ['a'] });
    const before = h.service.getPlan('s1');
    const events = h.events.length;
    expect(errorOf(await h.call('session', 'planning_setup_plan', { objective: '' }))).toBe('Objective must not be empty.');
    expect(errorOf(await h.call('session', 'planning_setup_plan', { objective: ' \n\t ' }))).toBe('Objective must not be empty.');
    expect(errorOf(await h.call('session', 'planning_setup_plan', { objective: 'x'.repeat(501) }))).toBe('Objective must be <= 500 characters (it is 501).');
    expect(h.service.getPlan('s1')).toBe(before);
    expect(h.events.length).toBe(events);
    // 500 characters (after trimming) are fine.
    await h.must('session', 'planning_setup_plan', { objective: ` ${'y'.repeat(500)} ` });
    expect(h.service.getPlan('s1')?.goal).toBe('y'.repeat(500));
  });

  it('setup replaces the plan with ids from 1 and the version continuing', async () => {
    await h.must('session', 'planning_setup_plan', { objective: 'one', initial_steps: ['a', 'b'] });
    await h.must('session', 'planning_setup_plan', { objective: 'two', initial_steps: ['c'] });
    expect(h.service.getPlan('s1')).toMatchObject({ goal: 'two', version: 2, steps: [{ id: 1, title: 'c' }] });
  });
});

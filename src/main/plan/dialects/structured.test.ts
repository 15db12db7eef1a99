import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, planHarness } from '../../../../test-support/main/plan-test-kit';
import { parsedInput } from '../../../../test-support/main/test-workspace';

const grid = {
  goal: "Create 3x3 structural grid at 25' spacing",
  steps: [
    { step_number: 1, description: "Create vertical grid lines A, B, C at 25' spacing", tools_to_use: ['place_grid'], success_criteria: '3 vertical grids created' },
    { step_number: 2, description: "Create horizontal grid lines 1, 2, 3 at 25' spacing", tools_to_use: ['place_grid'], success_criteria: '3 horizontal grids created' },
    { step_number: 3, description: 'Verify grid layout', tools_to_use: ['capture_screenshot'], success_criteria: 'Screenshot shows 3x3 grid pattern', is_verification: true, depends_on: [1, 2] },
  ],
  verification_approach: 'Screenshot capture and visual inspection',
  estimated_tool_calls: 7,
};

describe('structured dialect', () => {
  let h = planHarness();
  afterEach(() => {
    h.cleanup();
    h = planHarness();
  });

  it('runs the seed grid plan to completion with one event per change', async () => {
    const created = await h.must('structured', 'create_plan', grid);
    expect(created).toMatch(/^Created plan: 3 steps\nPlan v1 \(active\)/);
    expect(created).toContain('[ ] 3. Verify grid layout (after 1, 2)');
    expect(created).toContain('Next: step 1.');
    const plan = h.service.getPlan('s1');
    expect(plan).toMatchObject({ dialect: 'structured', goal: grid.goal, verificationApproach: grid.verification_approach, estimatedToolCalls: 7 });
    expect(plan?.steps[2]).toMatchObject({ id: 3, title: 'Verify grid layout', isVerification: true, toolsToUse: ['capture_screenshot'], successCriteria: 'Screenshot shows 3x3 grid pattern' });
    for (const n of [1, 2, 3]) {
      await h.must('structured', 'update_plan', { action: 'start_step', step_number: n });
      // The verification step needs a check made while it runs (the loop records each tool call).
      if (n === 3) h.service.recordToolCall('s1', 3, { at: '2025-01-19T14:31:00.000Z', tool: 'capture_screenshot', summary: 'Screenshot', durationMs: 40, ok: true });
      await h.must('structured', 'update_plan', { action: 'complete_step', step_number: n, result: `done ${n}` });
    }
    expect(h.service.getPlan('s1')?.status).toBe('completed');
    const done = await h.must('structured', 'complete_plan', { status: 'success', summary: 'Grid created', steps_completed: 3, issues_encountered: [] });
    expect(done).toMatch(/3\/3 steps completed/);
    expect(h.service.getPlan('s1')?.completion).toMatchObject({ status: 'success', summary: 'Grid created', stepsCompleted: 3 });
    expect(h.events.map((e) => e.plan.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(h.events.every((e) => (e.change.kind === 'planning' || e.change.kind === 'activity') && e.change.by === 'claude')).toBe(true);
    expect(h.events.map((e) => e.change.summary)).toEqual([
      'Created plan: 3 steps',
      'Updated plan: step 1 started',
      'Updated plan: step 1 completed',
      'Updated plan: step 2 started',
      'Updated plan: step 2 completed',
      'Updated plan: step 3 started',
      'Recorded capture_screenshot on step 3',
      'Updated plan: step 3 completed; plan completed',
      'Completed plan: success',
    ]);
  });

  it('adds steps, notes, fails and skips', async () => {
    await h.must('structured', 'create_plan', grid);
    expect(await h.must('structured', 'update_plan', { action: 'add_step', new_step: { description: 'Dimension grid', after_step: 2 } })).toMatch(/^Updated plan: step 4 added/);
    expect(h.service.getPlan('s1')?.steps.map((s) => s.id)).toEqual([1, 2, 4, 3]);
    await h.must('structured', 'update_plan', { action: 'start_step', step_number: 1 });
    await h.must('structured', 'update_plan', { action: 'note', note: 'Grid A is off by 1"' });
    expect(h.service.getPlan('s1')?.steps[0]?.notes).toEqual(['Grid A is off by 1"']);
    await h.must('structured', 'update_plan', { action: 'fail_step', step_number: 1, reason: 'API error' });
    await h.must('structured', 'update_plan', { action: 'skip_step', step_number: 4, reason: 'not needed' });
    expect(h.service.getPlan('s1')?.summary).toMatchObject({ failed: 1, skipped: 1, pending: 2 });
  });

  it('gives actionable errors and changes nothing on invalid calls', async () => {
    expect(errorOf(await h.call('structured', 'update_plan', { action: 'start_step', step_number: 1 }))).toMatch(/Call create_plan first/);
    await h.must('structured', 'create_plan', grid);
    const before = h.service.getPlan('s1');
    const eventsBefore = h.events.length;
    const cases: [unknown, RegExp][] = [
      [{ action: 'start_step' }, /start_step needs step_number/],
      [{ action: 'start_step', step_number: 3 }, /Step 3 cannot start yet: it depends on step 1/],
      [{ action: 'complete_step', step_number: 9 }, /Step 9 does not exist. Existing steps: 1–3/],
      [{ action: 'add_step' }, /add_step needs new_step/],
      [{ action: 'note', note: 'x' }, /No step is in progress; pass step_number/],
      [{ action: 'fly' }, /Invalid update_plan input: action:/],
      [{ action: 'start_step', step_number: '1' }, /step_number: expected number, received string/],
    ];
    for (const [input, message] of cases) expect(errorOf(await h.call('structured', 'update_plan', input))).toMatch(message);
    await h.must('structured', 'update_plan', { action: 'start_step', step_number: 1 });
    expect(errorOf(await h.call('structured', 'update_plan', { action: 'start_step', step_number: 2 }))).toMatch(/At most 1 step may be in progress/);
    expect(h.events.length).toBe(eventsBefore + 1);
    expect(h.service.getPlan('s1')?.steps[1]).toEqual(before?.steps[1]);
  });

  it('rejects bad create_plan input with the fix', async () => {
    const bad = (steps: unknown[]) => h.call('structured', 'create_plan', { goal: 'g', steps });
    expect(errorOf(await bad([]))).toMatch(/give at least one step/);
    expect(errorOf(await bad([{ step_number: 1, description: 'a' }, { step_number: 1, description: 'b' }]))).toMatch(/Step number 1 is used twice/);
    expect(errorOf(await bad([{ step_number: 1, description: 'a', depends_on: [2] }, { step_number: 2, description: 'b', depends_on: [1] }]))).toMatch(/Dependency cycle/);
    expect(errorOf(await bad([{ step_number: 1, description: '' }]))).toMatch(/empty/);
    expect(h.events).toHaveLength(0);
  });

  it('replacing a plan continues the version; complete_plan closes it for good', async () => {
    await h.must('structured', 'create_plan', grid);
    await h.must('structured', 'create_plan', { goal: 'Second', steps: [{ step_number: 1, description: 'x' }] });
    expect(h.service.getPlan('s1')).toMatchObject({ goal: 'Second', version: 2 });
    await h.must('structured', 'complete_plan', { status: 'failed', summary: 'gave up' });
    expect(h.service.getPlan('s1')?.status).toBe('failed');
    expect(errorOf(await h.call('structured', 'complete_plan', { status: 'success', summary: 'again' }))).toMatch(/already finished/);
  });

  it('describes dry runs like the seed, and refuses garbage input before any hook', () => {
    const [create, update, complete] = h.service.toolsFor('structured');
    if (!create || !update || !complete) throw new Error('structured has three tools');
    expect(create.describeDryRun(parsedInput(create, grid))).toBe("Would create plan for 'Create 3x3 structural grid at 25' spacing' with 3 steps.");
    expect(create.parse(42)).toMatchObject({ ok: false, error: { kind: 'invalid_parameter', message: expect.stringMatching(/^Invalid create_plan input: expected object, received number\. Pass \{goal/) } });
    expect(update.describeDryRun(parsedInput(update, { action: 'start_step', step_number: 2 }))).toBe('Would start_step for step 2.');
    expect(complete.describeDryRun(parsedInput(complete, { status: 'success', summary: 'done' }))).toBe('Would complete plan with status: success.');
    expect(update.summarize(parsedInput(update, { action: 'complete_step', step_number: 2, result: 'ok' }))).toBe('Complete step 2');
    expect(create.needsApproval(parsedInput(create, grid), {} as never)).toBe(false);
    expect(create.group).toBe('planning');
  });
});

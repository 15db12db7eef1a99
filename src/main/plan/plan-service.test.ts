import { afterEach, describe, expect, it } from 'vitest';
import { Dialect } from '../../shared/plan';
import { errorOf, planHarness } from '../../../test-support/main/plan-test-kit';

const attempt = { at: '2025-01-01T00:00:00Z', tool: 'run_command', inputSummary: 'npm test', error: 'exit 1', errorClass: 'unknown', strategy: 'retry_with_modification', outcome: 'retrying', durationMs: 12 } as const;

describe('PlanService', () => {
  let h = planHarness();
  afterEach(() => {
    h.cleanup();
    h = planHarness();
  });

  const threeSteps = () =>
    h.must('structured', 'create_plan', { goal: 'g', steps: [1, 2, 3].map((n) => ({ step_number: n, description: `step ${n}` })) });

  it('supports the recovery calls: current step, attempts, skip, restart, cancel', async () => {
    await threeSteps();
    expect(h.service.currentStepId('s1')).toBeNull();
    await h.must('structured', 'update_plan', { action: 'start_step', step_number: 1 });
    expect(h.service.currentStepId('s1')).toBe(1);
    expect(h.service.recordAttempt('s1', 1, attempt)).toBe(true);
    expect(h.events.at(-1)).toMatchObject({
      sessionId: 's1',
      plan: { version: 3 },
      change: { kind: 'recovery', by: 'claude', summary: 'Updated plan: step 1 attempt 1 (unknown, retrying)' },
    });
    expect(h.service.getPlan('s1')?.steps[0]?.attempts).toEqual([attempt]);
    expect(h.service.skipStep('s1', 1, 'user skipped', { kind: 'escalation', by: 'user', answer: 'skip' })).toBe(true);
    expect(h.events.at(-1)?.change).toMatchObject({ kind: 'escalation', by: 'user', answer: 'skip' });
    expect(h.service.getPlan('s1')?.steps[0]).toMatchObject({ status: 'skipped', reason: 'user skipped' });
    await h.must('structured', 'update_plan', { action: 'fail_step', step_number: 2, reason: 'x' });
    expect(h.service.restartStep('s1', 2)).toBe(true);
    expect(h.events.at(-1)?.change).toMatchObject({ by: 'user', answer: 'guidance' });
    expect(h.service.currentStepId('s1')).toBe(2);
    expect(h.service.cancelPlan('s1', 'aborted by user')).toBe(true);
    expect(h.events.at(-1)?.change).toMatchObject({ by: 'user', answer: 'abort' });
    expect(h.service.getPlan('s1')?.status).toBe('cancelled');
    expect(h.service.currentStepId('s1')).toBeNull();
    const n = h.events.length;
    expect(h.service.skipStep('s1', 3, 'late', { kind: 'recovery', by: 'claude' })).toBe(false);
    expect(h.service.recordAttempt('nobody', 1, attempt)).toBe(false);
    expect(h.events.length).toBe(n);
    expect(errorOf(await h.call('structured', 'update_plan', { action: 'start_step', step_number: 3 }))).toMatch(/already finished \(status: cancelled\)/);
  });

  it('keeps plans per session, versions monotonic, and returns frozen snapshots', async () => {
    await threeSteps();
    await h.must('checklist', 'update_plan', { plan: [{ step: 'x', status: 'pending' }] }, 's2');
    expect(h.service.dialectFor('s1', 'wbs')).toBe('structured');
    expect(h.service.dialectFor('s2', 'structured')).toBe('checklist');
    expect(h.service.dialectFor('s3', 'session')).toBe('session');
    await h.must('session', 'planning_setup_plan', { objective: 'replacement', initial_steps: ['a'] });
    expect(h.service.getPlan('s1')).toMatchObject({ dialect: 'session', version: 2 });
    const plan = h.service.getPlan('s1');
    expect(Object.isFrozen(plan) && Object.isFrozen(plan?.steps[0])).toBe(true);
    const s1Versions = h.events.filter((e) => e.sessionId === 's1').map((e) => e.plan.version);
    expect(s1Versions).toEqual([1, 2]);
    h.service.drop('s1');
    expect(h.service.getPlan('s1')).toBeNull();
  });

  it('unsubscribes listeners and restores a logged plan without an event', async () => {
    await threeSteps();
    const seen: number[] = [];
    const sub = h.service.onPlanUpdated((e) => seen.push(e.plan.version));
    await h.must('structured', 'update_plan', { action: 'start_step', step_number: 1 });
    sub.dispose();
    await h.must('structured', 'update_plan', { action: 'complete_step', step_number: 1 });
    expect(seen).toEqual([2]);
    const logged = JSON.parse(JSON.stringify(h.service.getPlan('s1')));
    const other = planHarness();
    other.service.restore('s9', logged);
    expect(other.service.getPlan('s9')).toEqual(logged);
    expect(other.events).toHaveLength(0);
    expect(await other.must('structured', 'update_plan', { action: 'start_step', step_number: 2 }, 's9')).toMatch(/Plan v4/);
    other.cleanup();
  });

  it('offers compact tools and guidance per dialect (default under 1,000 tokens)', () => {
    for (const dialect of Dialect.options) {
      const tools = h.service.toolsFor(dialect);
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.every((t) => t.group === 'planning' && t.inputSchema.type === 'object')).toBe(true);
      expect(h.service.guidance(dialect)).toMatch(/^## Planning\n/);
    }
    const structured = h.service.toolsFor('structured');
    expect(structured.map((t) => t.name)).toEqual(['create_plan', 'update_plan', 'complete_plan']);
    const wire = JSON.stringify(structured.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })));
    // ~4 characters per token for English JSON. The schemas are derived from zod and state every
    // rule the tools check (about 925 when measured); the budget is 1,000.
    expect((wire.length + h.service.guidance('structured').length) / 4).toBeLessThan(1000);
  });
});

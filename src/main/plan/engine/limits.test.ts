import { describe, expect, it } from 'vitest';
import { addSteps } from './add-steps';
import { createPlan } from './create-plan';
import { defaultEngineOptions, MAX_STEPS } from './engine-types';
import { setStepStatus } from './step-status';

const options = defaultEngineOptions();
const titles = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ title: `Step ${from + i}` }));

describe('plan size limit', () => {
  it('takes a 1,000-step plan, keeps it working, and refuses step 1,001 with a clear fix', () => {
    expect(MAX_STEPS).toBe(1000);
    const created = createPlan({ id: 'p', dialect: 'wbs', goal: 'Big', steps: titles(999) }, 0, options);
    if (!created.ok) throw new Error(created.error);
    const full = addSteps(created.plan, titles(1, 1000), options);
    if (!full.ok) throw new Error(full.error);
    expect(full.plan.steps).toHaveLength(1000);
    const started = setStepStatus(full.plan, { stepId: 1000, status: 'in_progress' }, options);
    expect(started.ok && started.plan.summary).toMatchObject({ total: 1000, in_progress: 1 });
    const over = addSteps(full.plan, titles(1, 1001), options);
    expect(over).toEqual({ ok: false, error: 'A plan may have at most 1000 steps; this one would have 1001. Merge steps.' });
    const tooBig = createPlan({ id: 'q', dialect: 'wbs', goal: 'Big', steps: titles(1001) }, 0, options);
    expect(tooBig).toEqual({ ok: false, error: 'A plan may have at most 1000 steps; got 1001. Merge steps.' });
  });
});

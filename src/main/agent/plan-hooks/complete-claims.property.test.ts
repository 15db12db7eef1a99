import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan, PlanCompletion, StepStatus } from '../../../shared/plan';
import { completionCard } from '../../chats/plan-cards';
import { completePlanAsClaimed } from '../../plan/engine/close-plan';
import { createPlan } from '../../plan/engine/create-plan';
import { defaultEngineOptions } from '../../plan/engine/engine-types';
import { allStepsDone, computeSummary } from '../../plan/engine/summary';

// complete_plan's claims are checked against the plan (issue 25): whatever Claude claims, the
// completion card's counts and status never contradict the plan's steps.

const options = defaultEngineOptions({ now: () => new Date('2026-01-01T00:00:00Z') });
const status = fc.constantFrom<StepStatus>('pending', 'in_progress', 'completed', 'failed', 'skipped');
const count = fc.option(fc.nat({ max: 20 }), { nil: undefined });

/** A plan with steps in any statuses (at most one in progress, the engine's rule), still open. */
const openPlan = fc.array(status, { minLength: 1, maxLength: 12 }).map((statuses): Plan => {
  const created = createPlan({ id: 'p', dialect: 'structured', goal: 'Goal', steps: statuses.map((_, i) => ({ id: i + 1, title: `Step ${i + 1}` })) }, 0, options);
  if (!created.ok) throw new Error(created.error);
  let running = false;
  const steps = created.plan.steps.map((s, i) => {
    let next = statuses[i] as StepStatus;
    if (next === 'in_progress' && running) next = 'pending';
    if (next === 'in_progress') running = true;
    return { ...s, status: next };
  });
  return { ...created.plan, steps, summary: computeSummary(steps), status: allStepsDone(steps) ? 'completed' : 'active' };
});

const claim = fc.record({
  status: fc.constantFrom<PlanCompletion['status']>('success', 'partial_success', 'failed'),
  summary: fc.constant('Done, as claimed.'),
  issues: fc.array(fc.string({ maxLength: 20 }), { maxLength: 2 }),
  stepsCompleted: count,
  stepsFailed: count,
  stepsSkipped: count,
});

describe('complete_plan claims against the plan', () => {
  it('the card never shows a count or a success the plan contradicts', () => {
    fc.assert(
      fc.property(openPlan, claim, (plan, claimed) => {
        const completion = Object.fromEntries(Object.entries(claimed).filter(([, v]) => v !== undefined)) as PlanCompletion;
        const result = completePlanAsClaimed(plan, completion, options);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const closed = result.plan;
        const card = completionCard(closed);
        expect(card).not.toBeNull();
        const s = computeSummary(closed.steps);
        expect(card!.counts).toEqual({ completed: s.completed, failed: s.failed, skipped: s.skipped, total: s.total });
        const recorded = card!.completion;
        if (recorded.stepsCompleted !== undefined) expect(recorded.stepsCompleted).toBe(s.completed);
        if (recorded.stepsFailed !== undefined) expect(recorded.stepsFailed).toBe(s.failed);
        if (recorded.stepsSkipped !== undefined) expect(recorded.stepsSkipped).toBe(s.skipped);
        const unfinished = closed.steps.filter((step) => step.status !== 'completed' && step.status !== 'skipped');
        if (recorded.status === 'success') expect(unfinished).toEqual([]);
        if (claimed.status === 'success' && unfinished.length > 0) {
          // Recorded as partial, with a note naming the first unfinished step.
          expect(recorded.status).toBe('partial_success');
          expect(closed.status).toBe('partial');
          expect(recorded.issues[0]).toContain(`step ${unfinished[0]!.id} "${unfinished[0]!.title}"`);
        } else {
          expect(recorded.status).toBe(claimed.status);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the measured case: success while the verification step is still in progress is recorded as partial, and Claude is told', () => {
    const created = createPlan({ id: 'p', dialect: 'structured', goal: 'Grid', steps: [{ id: 1, title: 'Build' }, { id: 2, title: 'Label' }, { id: 3, title: 'Verify grid', isVerification: true }] }, 0, options);
    if (!created.ok) throw new Error(created.error);
    const steps = created.plan.steps.map((s) => ({ ...s, status: (s.id === 3 ? 'in_progress' : 'completed') as StepStatus }));
    const plan: Plan = { ...created.plan, steps, summary: computeSummary(steps) };
    const result = completePlanAsClaimed(plan, { status: 'success', summary: 'Grid created', issues: [], stepsCompleted: 3 }, options);
    if (!result.ok) throw new Error(result.error);
    expect(result.plan.status).toBe('partial');
    expect(result.plan.completion).toMatchObject({ status: 'partial_success', stepsCompleted: 2 });
    expect(result.plan.goalCheckDue).toBeUndefined();
    expect(result.change).toBe('Completed plan: partial success (Claude claimed success, but step 3 "Verify grid" is in progress)');
    expect(completionCard(result.plan)!.counts).toEqual({ completed: 2, failed: 0, skipped: 0, total: 3 });
  });
});

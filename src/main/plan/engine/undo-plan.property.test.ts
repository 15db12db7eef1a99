import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Plan, type StepStatus } from '../../../shared/plan';
import { createPlan } from './create-plan';
import { defaultEngineOptions } from './engine-types';
import { markUndone } from './undo-plan';

// "Undo plan" (issue 12, item 9): afterwards the plan does not claim any work is done.

const options = defaultEngineOptions({ now: () => new Date('2025-02-01T00:00:00Z') });
const status = fc.constantFrom<StepStatus>('pending', 'in_progress', 'completed', 'failed', 'skipped');
const planStatus = fc.constantFrom<Plan['status']>('active', 'completed', 'partial', 'failed', 'cancelled');
const files = fc.record({
  restored: fc.uniqueArray(fc.constantFrom('a.txt', 'b.txt', 'c.txt')),
  deleted: fc.uniqueArray(fc.constantFrom('new.md', 'other.md')),
  skipped: fc.uniqueArray(fc.constantFrom('a.txt', 'hand-edited.txt')),
});

/** A plan of `statuses.length` steps in the given statuses (as any dialect or recovery could leave it). */
function planWith(statuses: StepStatus[], status: Plan['status']): Plan {
  const created = createPlan({ id: 'p', dialect: 'structured', goal: 'g', steps: statuses.map((_, i) => ({ id: i + 1, title: `Step ${i + 1}` })) }, 0, options);
  if (!created.ok) throw new Error(created.error);
  return { ...created.plan, status, steps: created.plan.steps.map((s, i) => ({ ...s, status: statuses[i]! })) };
}

describe('markUndone', () => {
  it('ends the plan with no step done, running or failed; skipped steps, ids and titles stay', () => {
    fc.assert(
      fc.property(fc.array(status, { minLength: 1, maxLength: 12 }), planStatus, files, (statuses, whole, undoFiles) => {
        const plan = planWith(statuses, whole);
        const result = markUndone(plan, undoFiles, options);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const undone = result.plan;
        expect(undone.status).toBe('cancelled');
        expect(undone.version).toBe(plan.version + 1);
        expect(undone.steps.map((s) => [s.id, s.title])).toEqual(plan.steps.map((s) => [s.id, s.title]));
        expect(undone.steps.map((s) => s.status)).toEqual(statuses.map((s) => (s === 'skipped' ? 'skipped' : 'pending')));
        expect(undone.summary).toMatchObject({ completed: 0, in_progress: 0, failed: 0, percent: 0 });
        expect(undone.undone).toEqual({ at: '2025-02-01T00:00:00.000Z', ...undoFiles, skipped: undoFiles.skipped.filter((f) => !(undoFiles.restored as string[]).includes(f)) });
        expect(Plan.parse(JSON.parse(JSON.stringify(undone)))).toEqual(undone);
      }),
      { numRuns: 300 },
    );
  });

  it('a second undo (files left alone the first time) keeps the steps and merges the file lists', () => {
    const first = markUndone(planWith(['completed', 'completed', 'pending'], 'active'), { restored: ['b.txt'], deleted: ['new.md'], skipped: ['a.txt'] }, options);
    if (!first.ok) throw new Error(first.error);
    const second = markUndone(first.plan, { restored: ['a.txt'], deleted: [], skipped: [] }, options);
    if (!second.ok) throw new Error(second.error);
    expect(second.plan.undone).toMatchObject({ restored: ['b.txt', 'a.txt'], deleted: ['new.md'], skipped: [] });
    expect(second.plan.steps).toEqual(first.plan.steps);
    expect(second.change).toBe('Undid plan: restored a.txt');
  });
});

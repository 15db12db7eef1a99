import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../../../shared/plan';
import { shareSteps } from './share-steps';

const step = (id: number, status: PlanStep['status'] = 'pending', extra: Partial<PlanStep> = {}): PlanStep => ({
  id,
  title: `Step ${id}`,
  status,
  dependsOn: [],
  notes: [],
  attempts: [],
  ...extra,
});

const plan = (steps: PlanStep[], version = 1, id = 'p1'): Plan =>
  ({
    id,
    goal: 'Goal',
    status: 'active',
    steps,
    version,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    summary: { total: steps.length, completed: 0, in_progress: 0, pending: steps.length, failed: 0, skipped: 0, percent: 0 },
  }) as Plan;

/** A copy as JSON would bring it: equal, never identical. */
const fresh = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('shareSteps', () => {
  it('keeps the held object of every equal step and takes the changed ones', () => {
    const held = plan([step(1, 'completed'), step(2, 'in_progress'), step(3)], 4);
    const next = fresh(plan([step(1, 'completed'), step(2, 'completed'), step(3, 'in_progress')], 5));
    const shared = shareSteps(held, next);
    expect(shared.steps[0]).toBe(held.steps[0]);
    expect(shared.steps[1]).toBe(next.steps[1]);
    expect(shared.steps[2]).toBe(next.steps[2]);
    expect(shared.version).toBe(5);
  });

  it('a note or a recorded call makes the step new', () => {
    const held = plan([step(1, 'in_progress')]);
    const next = fresh(plan([step(1, 'in_progress', { notes: ['checked the tests'] })], 2));
    expect(shareSteps(held, next).steps[0]).toBe(next.steps[0]);
  });

  it('another plan shares nothing', () => {
    const held = plan([step(1)], 3, 'old');
    const next = fresh(plan([step(1)], 1, 'new'));
    expect(shareSteps(held, next)).toBe(next);
    expect(shareSteps(null, next)).toBe(next);
  });

  it('always equals the plan it was given, and reuses exactly the equal steps (property)', () => {
    const statuses = fc.constantFrom<PlanStep['status']>('pending', 'in_progress', 'completed', 'failed', 'skipped');
    const steps = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 30 }), status: statuses, note: fc.option(fc.string(), { nil: undefined }) }), {
      selector: (s) => s.id,
      maxLength: 12,
    });
    const toSteps = (list: { id: number; status: PlanStep['status']; note: string | undefined }[]) =>
      list.map((s) => step(s.id, s.status, s.note === undefined ? {} : { notes: [s.note] }));
    fc.assert(
      fc.property(steps, steps, (a, b) => {
        const held = plan(toSteps(a), 1);
        const next = fresh(plan(toSteps(b), 2));
        const shared = shareSteps(held, next);
        expect(shared).toEqual(next);
        shared.steps.forEach((s, i) => {
          const old = held.steps.find((h) => h.id === s.id);
          const equal = old !== undefined && JSON.stringify(old) === JSON.stringify(next.steps[i]);
          expect(s === old).toBe(equal);
        });
      }),
    );
  });
});

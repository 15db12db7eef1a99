import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StepStatus } from '../../../shared/plan';
import { createPlan, type StepDraft } from './create-plan';
import { defaultEngineOptions } from './engine-types';
import { isSealed, sealPlan } from './seal';
import { sealStepChange, sealStepChanges } from './seal-step';
import { replaceStep } from './step-lookup';

const status = fc.constantFrom<StepStatus>('pending', 'in_progress', 'completed', 'failed', 'skipped');
const drafts = fc
  .array(fc.record({ title: fc.constantFrom('Build', 'Test', 'Ship', ' Pad ', 'x'.repeat(500)), status, deps: fc.array(fc.nat(), { maxLength: 3 }) }), { minLength: 1, maxLength: 12 })
  .map((raw) => raw.map<StepDraft>((r, i) => ({ id: i + 1, title: r.title, status: r.status, dependsOn: i === 0 ? [] : r.deps.map((d) => 1 + (d % i)) })));
const edit = fc.record({ pick: fc.nat(), status, title: fc.option(fc.constantFrom('Renamed', '   ', 'y'.repeat(501)), { nil: undefined }), note: fc.boolean() });

describe('sealStepChange (the one-step fast path)', () => {
  it('gives exactly what the full validation gives: the same error, or the same snapshot', () => {
    fc.assert(
      fc.property(drafts, fc.array(edit, { minLength: 1, maxLength: 25 }), fc.constantFrom(1, 2, 3), (steps, edits, maxInProgress) => {
        const options = defaultEngineOptions({ maxInProgress, now: () => new Date('2025-01-01T00:00:00Z') });
        const created = createPlan({ id: 'p', dialect: 'session', goal: 'g', steps }, 0, options);
        if (!created.ok) return; // an invalid starting mix of statuses: nothing to compare
        let plan = created.plan;
        for (const e of edits) {
          const index = e.pick % plan.steps.length;
          const before = plan.steps[index]!;
          const next = { ...before, status: e.status, ...(e.title ? { title: e.title } : {}), ...(e.note ? { notes: [...before.notes, 'seen'] } : {}) };
          const fast = sealStepChange(plan, index, next, options, 'change');
          const full = sealPlan(replaceStep(plan, index, next), plan.version, options, 'change');
          expect(fast.ok).toBe(full.ok);
          if (!fast.ok || !full.ok) {
            expect(fast).toEqual(full);
            continue;
          }
          expect(fast.plan).toEqual(full.plan);
          expect(fast.change).toBe(full.change);
          expect(Object.isFrozen(fast.plan) && Object.isFrozen(fast.plan.steps) && Object.isFrozen(fast.plan.steps[index])).toBe(true);
          expect(isSealed(fast.plan)).toBe(true);
          plan = fast.plan;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('several status changes at once (a checklist rewrite) match the full validation too', () => {
    fc.assert(
      fc.property(drafts, fc.array(fc.array(fc.tuple(fc.nat(), status), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 15 }), (steps, calls) => {
        const options = defaultEngineOptions({ now: () => new Date('2025-01-01T00:00:00Z') });
        const created = createPlan({ id: 'p', dialect: 'checklist', goal: 'g', steps }, 0, options);
        if (!created.ok) return;
        let plan = created.plan;
        for (const changes of calls) {
          const next = [...plan.steps];
          const indices = new Set<number>();
          for (const [pick, to] of changes) {
            const i = pick % next.length;
            next[i] = { ...next[i]!, status: to };
            indices.add(i);
          }
          const candidate = { ...plan, steps: next };
          const fast = sealStepChanges(plan, candidate, [...indices], options, 'change');
          const full = sealPlan(candidate, plan.version, options, 'change');
          expect(fast).toEqual(full);
          if (fast.ok) plan = fast.plan;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shares the unchanged steps with the previous snapshot', () => {
    const options = defaultEngineOptions();
    const created = createPlan({ id: 'p', dialect: 'structured', goal: 'g', steps: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] }, 0, options);
    if (!created.ok) throw new Error(created.error);
    const base = created.plan;
    const changed = sealStepChange(base, 1, { ...base.steps[1]!, status: 'in_progress' }, options, 'start');
    if (!changed.ok) throw new Error(changed.error);
    expect(changed.plan.steps[0]).toBe(base.steps[0]);
    expect(changed.plan.steps[2]).toBe(base.steps[2]);
    expect(changed.plan.summary).toMatchObject({ in_progress: 1, pending: 2 });
  });

  it('a plan not sealed by the engine (e.g. read from a log) gets the full validation', () => {
    const options = defaultEngineOptions();
    const created = createPlan({ id: 'p', dialect: 'structured', goal: 'g', steps: [{ title: 'a' }, { title: 'b', dependsOn: [1] }] }, 0, options);
    if (!created.ok) throw new Error(created.error);
    // A corrupt log: step 1 depends on step 2 too (a cycle) — only a full check can see it.
    const logged = structuredClone(created.plan);
    logged.steps[0] = { ...logged.steps[0]!, dependsOn: [2] };
    expect(isSealed(logged)).toBe(false);
    const result = sealStepChange(logged, 0, { ...logged.steps[0]!, notes: ['x'] }, options, 'note');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/Dependency cycle/);
  });
});

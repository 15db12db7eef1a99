import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Plan, type StepStatus } from '../../../shared/plan';
import { createPlan, type StepDraft } from './create-plan';
import { defaultEngineOptions, type OpResult } from './engine-types';
import { rewriteSteps } from './rewrite-steps';
import { setStepStatus } from './step-status';
import { computeSummary } from './summary';

const options = defaultEngineOptions({ now: () => new Date('2025-01-01T00:00:00Z') });
const status = fc.constantFrom<StepStatus>('pending', 'in_progress', 'completed', 'failed', 'skipped');
const title = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0);

/** A valid DAG: step i depends only on earlier steps; numbers are unique but shuffled. */
const validDrafts = fc
  .array(fc.record({ title, deps: fc.array(fc.nat(), { maxLength: 3 }) }), { minLength: 1, maxLength: 15 })
  .chain((raw) =>
    fc.shuffledSubarray([...Array(raw.length * 3).keys()].map((n) => n + 1), { minLength: raw.length, maxLength: raw.length }).map((ids) =>
      raw.map<StepDraft>((r, i) => ({ id: ids[i], title: r.title, dependsOn: i === 0 ? [] : r.deps.map((d) => ids[d % i] as number) })),
    ),
  );

const create = (steps: readonly StepDraft[]): OpResult => createPlan({ id: 'p', dialect: 'structured', goal: 'g', steps }, 0, options);

describe('engine properties', () => {
  it('summary counts always sum to total', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ status })), (steps) => {
        const s = computeSummary(steps);
        expect(s.completed + s.in_progress + s.pending + s.failed + s.skipped).toBe(s.total);
        expect(s.percent).toBe(s.total === 0 ? 0 : Math.round((100 * s.completed) / s.total));
      }),
      { numRuns: 500 },
    );
  });

  it('every valid plan is accepted and JSON round-trips', () => {
    fc.assert(
      fc.property(validDrafts, (drafts) => {
        const result = create(drafts);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.plan.steps.map((s) => s.id)).toEqual(drafts.map((d) => d.id));
        expect(Plan.parse(JSON.parse(JSON.stringify(result.plan)))).toEqual(result.plan);
      }),
      { numRuns: 300 },
    );
  });

  it('every invalid plan is rejected', () => {
    const defect = fc.constantFrom('blank', 'long', 'missingDep', 'cycle', 'duplicate', 'selfDep');
    fc.assert(
      fc.property(validDrafts, defect, fc.nat(), (drafts, kind, pick) => {
        const steps = drafts.map((d) => ({ ...d, dependsOn: [...(d.dependsOn ?? [])] }));
        const i = pick % steps.length;
        const victim = steps[i] as StepDraft & { dependsOn: number[] };
        if (kind === 'blank') victim.title = ' \t ';
        if (kind === 'long') victim.title = 'x'.repeat(501);
        if (kind === 'missingDep') victim.dependsOn.push(10_000);
        if (kind === 'selfDep') victim.dependsOn.push(victim.id as number);
        if (kind === 'duplicate') steps.push({ ...victim, dependsOn: [] });
        if (kind === 'cycle') {
          if (steps.length < 2) steps.push({ id: 9_999, title: 'extra', dependsOn: [] });
          const [a, b] = [steps[0] as StepDraft & { dependsOn: number[] }, steps[steps.length - 1] as StepDraft & { dependsOn: number[] }];
          a.dependsOn.push(b.id as number);
          b.dependsOn.push(a.id as number);
        }
        expect(create(steps).ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('random status changes never break the rules; rejected ones leave the plan untouched; versions rise by one', () => {
    fc.assert(
      fc.property(validDrafts, fc.array(fc.tuple(fc.nat(), status), { maxLength: 30 }), (drafts, changes) => {
        const first = create(drafts);
        if (!first.ok) throw new Error(first.error);
        let plan = first.plan;
        for (const [pick, next] of changes) {
          const before = JSON.stringify(plan);
          const stepId = plan.steps[pick % plan.steps.length]?.id as number;
          const result = setStepStatus(plan, { stepId, status: next }, options);
          if (!result.ok) {
            expect(JSON.stringify(plan)).toBe(before);
            continue;
          }
          if (result.plan !== plan) expect(result.plan.version).toBe(plan.version + 1);
          plan = result.plan;
          expect(plan.steps.filter((s) => s.status === 'in_progress').length).toBeLessThanOrEqual(1);
          const done = new Set(plan.steps.filter((s) => s.status === 'completed' || s.status === 'skipped').map((s) => s.id));
          for (const s of plan.steps) if (s.status === 'in_progress') expect(s.dependsOn.every((d) => done.has(d))).toBe(true);
          if (plan.steps.every((s) => done.has(s.id))) expect(plan.status).toBe('completed');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('trims whitespace consistently: padded text equals its trimmed form and keeps its id', () => {
    const pad = fc.constantFrom('', ' ', '\t', '  \n');
    fc.assert(
      fc.property(fc.uniqueArray(title.map((t) => t.trim()), { minLength: 1, maxLength: 12 }), pad, pad, (titles, left, right) => {
        const created = createPlan({ id: 'c', dialect: 'checklist', goal: 'g', steps: titles.map((t) => ({ title: `${left}${t}${right}` })) }, 0, options);
        if (!created.ok) throw new Error(created.error);
        expect(created.plan.steps.map((s) => s.title)).toEqual(titles);
        const again = rewriteSteps(created.plan, titles.map((t) => ({ title: `${right}${t}${left}`, status: 'pending' })), undefined, options);
        expect(again.ok && again.plan).toBe(created.plan);
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Plan, type StepStatus } from '../../../shared/plan';
import type { UserEdit } from '../../../shared/plan-edit';
import { insertStep } from './add-steps';
import { createPlan, type StepDraft } from './create-plan';
import { defaultEngineOptions, type OpResult } from './engine-types';
import { recordStepCall } from './step-calls';
import { setStepStatus } from './step-status';
import { computeSummary } from './summary';
import { applyUserEdit } from './user-edits';
import { validatePlan } from './validate-plan';

// Any sequence of the user's edits and Claude's changes, valid or not, keeps every rule of the
// plan; a refused change leaves the plan exactly as it was; versions only go up, one per change.

const options = defaultEngineOptions({ now: () => new Date('2025-01-01T00:00:00Z') });
const title = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim().length > 0),
  fc.constantFrom('', '   ', 'x'.repeat(501)), // refused
);
const status = fc.constantFrom<StepStatus>('pending', 'in_progress', 'completed', 'failed', 'skipped');

/** A valid plan with dependencies on earlier steps and some sub-steps. */
const drafts = fc
  .array(fc.record({ title: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim().length > 0), dep: fc.nat(), child: fc.boolean() }), { minLength: 1, maxLength: 10 })
  .map((raw) =>
    raw.map<StepDraft>((r, i) => ({
      id: i + 1,
      title: r.title,
      dependsOn: i > 0 && r.dep % 3 === 0 ? [(r.dep % i) + 1] : [],
      // A sub-step of the step right before it (parents precede children).
      ...(i > 0 && r.child ? { parentId: i } : {}),
    })),
  );

type Op =
  | { by: 'user'; edit: (stepId: number) => UserEdit; pick: number; stale: number }
  | { by: 'claude'; kind: 'status'; pick: number; status: StepStatus }
  | { by: 'claude'; kind: 'add'; title: string }
  | { by: 'claude'; kind: 'call' };

const userEdit: fc.Arbitrary<(stepId: number) => UserEdit> = fc.oneof(
  title.map((t) => (stepId: number): UserEdit => ({ kind: 'rename', stepId, title: t })),
  fc.constant((stepId: number): UserEdit => ({ kind: 'skip', stepId })),
  fc.constant((stepId: number): UserEdit => ({ kind: 'delete', stepId })),
  fc.constantFrom<'up' | 'down'>('up', 'down').map((direction) => (stepId: number): UserEdit => ({ kind: 'move', stepId, direction })),
  title.map((t) => (): UserEdit => ({ kind: 'add', title: t })),
);

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ by: fc.constant('user' as const), edit: userEdit, pick: fc.nat(), stale: fc.nat({ max: 3 }) }),
  fc.record({ by: fc.constant('claude' as const), kind: fc.constant('status' as const), pick: fc.nat(), status }),
  fc.record({ by: fc.constant('claude' as const), kind: fc.constant('add' as const), title }),
  fc.record({ by: fc.constant('claude' as const), kind: fc.constant('call' as const) }),
);

function apply(plan: Plan, o: Op): OpResult {
  const pickStep = (pick: number) => plan.steps[pick % plan.steps.length]?.id ?? pick + 1;
  if (o.by === 'user') {
    return applyUserEdit(plan, { planId: plan.id, version: Math.max(0, plan.version - o.stale), edit: o.edit(pickStep(o.pick)) }, options);
  }
  if (o.kind === 'status') return setStepStatus(plan, { stepId: pickStep(o.pick), status: o.status }, options);
  if (o.kind === 'add') return insertStep(plan, { title: o.title }, { kind: 'end' }, options);
  const running = plan.steps.find((s) => s.status === 'in_progress');
  if (!running) return { ok: false, error: 'no step in progress' };
  return recordStepCall(plan, running.id, { at: '2025-01-01T00:00:00Z', tool: 'read_file', summary: 'Read a.ts', durationMs: 3, ok: true }, options);
}

describe('user edits with Claude changes, in any order', () => {
  it('keep every rule; refused changes change nothing; versions only go up', () => {
    fc.assert(
      fc.property(drafts, fc.array(op, { maxLength: 40, size: 'medium' }), (steps, ops) => {
        const created = createPlan({ id: 'p', dialect: 'structured', goal: 'g', steps }, 0, options);
        if (!created.ok) throw new Error(created.error);
        let plan = created.plan;
        const everUsed = new Set(plan.steps.map((s) => s.id));
        const skippedByUser = new Set<number>();
        const deletedByUser = new Set<number>();
        for (const o of ops) {
          const before = JSON.stringify(plan);
          const result = apply(plan, o);
          if (!result.ok) {
            expect(result.error.length).toBeGreaterThan(0);
            expect(JSON.stringify(plan)).toBe(before);
            continue;
          }
          if (result.plan === plan) continue;
          expect(result.plan.version).toBe(plan.version + 1);
          const fresh = result.plan.steps.filter((s) => !everUsed.has(s.id));
          // A new step's id is one more than the highest id the plan has ever used.
          for (const s of fresh) expect(s.id).toBe(Math.max(...everUsed) + 1 + fresh.indexOf(s));
          plan = result.plan;
          for (const s of plan.steps) everUsed.add(s.id);
          const last = plan.edits?.at(-1);
          if (o.by === 'user' && last?.version === plan.version) {
            if (last.kind === 'skip') skippedByUser.add(last.stepId);
            if (last.kind === 'delete') deletedByUser.add(last.stepId);
          }

          expect(validatePlan(plan, options.maxInProgress)).toBeNull();
          expect(plan.summary).toEqual(computeSummary(plan.steps));
          expect(plan.nextStepId).toBeGreaterThan(Math.max(...everUsed));
          // Steps the user skipped stay skipped, and deleted ones never come back.
          for (const id of skippedByUser) expect(plan.steps.find((s) => s.id === id)?.status).toBe('skipped');
          for (const id of deletedByUser) expect(plan.steps.some((s) => s.id === id)).toBe(false);
          const allDone = plan.steps.every((s) => s.status === 'completed' || s.status === 'skipped');
          expect(plan.status).toBe(allDone ? 'completed' : 'active');
          expect(Plan.parse(JSON.parse(JSON.stringify(plan)))).toEqual(plan);
          // Every edit record names the version it made, in rising order.
          const versions = (plan.edits ?? []).map((e) => e.version);
          expect(versions).toEqual([...versions].sort((a, b) => a - b));
        }
      }),
      { numRuns: 200 },
    );
  });
});

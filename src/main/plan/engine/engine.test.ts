import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plan';
import { addSteps, insertStep } from './add-steps';
import { cancelPlan, completePlan } from './close-plan';
import { createPlan, type StepDraft } from './create-plan';
import { defaultEngineOptions, type OpResult } from './engine-types';
import { rewriteSteps } from './rewrite-steps';
import { recordAttempt } from './step-notes';
import { editStep, setStepStatus } from './step-status';
import { computeSummary } from './summary';
import { findDependencyCycle } from './cycle';

const options = defaultEngineOptions({ now: () => new Date('2025-01-01T00:00:00Z') });

function plan(steps: StepDraft[], previousVersion = 0): Plan {
  const result = createPlan({ id: 'p1', dialect: 'structured', goal: 'Goal', steps }, previousVersion, options);
  if (!result.ok) throw new Error(result.error);
  return result.plan;
}
function okPlan(result: OpResult): Plan {
  if (!result.ok) throw new Error(result.error);
  return result.plan;
}
function errorOf(result: OpResult): string {
  if (result.ok) throw new Error('expected a rejection');
  return result.error;
}
const three = () => plan([{ id: 1, title: 'A' }, { id: 2, title: 'B', dependsOn: [1] }, { id: 3, title: 'C', dependsOn: [2] }]);

describe('createPlan', () => {
  it('trims titles, keeps given ids and starts at version 1', () => {
    const p = plan([{ id: 1, title: '  Build  ' }, { id: 2, title: 'Test', dependsOn: [1] }]);
    expect(p.steps.map((s) => [s.id, s.title, s.status])).toEqual([[1, 'Build', 'pending'], [2, 'Test', 'pending']]);
    expect(p.version).toBe(1);
    expect(p.status).toBe('active');
    expect(p.summary).toEqual({ total: 2, completed: 0, in_progress: 0, pending: 2, failed: 0, skipped: 0, percent: 0 });
    expect(p.nextStepId).toBe(3);
  });

  it('continues the version of the plan it replaces', () => {
    expect(plan([{ title: 'x' }], 7).version).toBe(8);
  });

  it.each([
    [[{ title: '   ' }], /empty/],
    [[{ title: 'x'.repeat(501) }], /501 characters long; the limit is 500/],
    [[{ id: 1, title: 'a' }, { id: 1, title: 'b' }], /used twice/],
    [[{ id: 1, title: 'a', dependsOn: [9] }], /depends on step 9, which does not exist/],
    [[{ id: 1, title: 'a', dependsOn: [1] }], /depends on itself/],
    [[{ id: 1, title: 'a', dependsOn: [2] }, { id: 2, title: 'b', dependsOn: [1] }], /cycle: step (1 → 2 → 1|2 → 1 → 2)/],
    [[{ id: 2, title: 'child', parentId: 1 }, { id: 1, title: 'parent' }], /before its parent 1/],
    [[{ id: 1, title: 'a', parentId: 5 }], /parent 5 does not exist/],
    [[{ id: 0, title: 'a' }], /positive integers/],
  ])('rejects invalid drafts %#', (steps, message) => {
    const result = createPlan({ id: 'p', dialect: 'structured', goal: 'g', steps }, 0, options);
    expect(errorOf(result)).toMatch(message);
  });

  it('rejects an empty goal', () => {
    expect(errorOf(createPlan({ id: 'p', dialect: 'structured', goal: ' ', steps: [] }, 0, options))).toMatch(/goal is empty/);
  });

  it('accepts exactly 500 characters', () => {
    expect(plan([{ title: 'x'.repeat(500) }]).steps[0]?.title).toHaveLength(500);
  });
});

describe('step status rules', () => {
  it('starts, completes and auto-completes the plan', () => {
    let p = three();
    p = okPlan(setStepStatus(p, { stepId: 1, status: 'in_progress' }, options));
    expect(p.version).toBe(2);
    const done = setStepStatus(p, { stepId: 1, status: 'completed', result: 'ok' }, options);
    expect(done.ok && done.change).toBe('Updated plan: step 1 completed');
    p = okPlan(done);
    p = okPlan(setStepStatus(p, { stepId: 2, status: 'skipped', reason: 'not needed' }, options));
    const last = setStepStatus(p, { stepId: 3, status: 'completed' }, options);
    p = okPlan(last);
    expect(p.status).toBe('completed');
    expect(last.ok && last.change).toMatch(/plan completed$/);
    expect(p.summary).toMatchObject({ total: 3, completed: 2, skipped: 1, percent: 67 });
    expect(p.steps[0]?.result).toBe('ok');
    expect(p.steps[1]?.reason).toBe('not needed');
  });

  it('refuses to start a step before its dependencies, leaving the plan untouched', () => {
    const p = three();
    const before = JSON.stringify(p);
    expect(errorOf(setStepStatus(p, { stepId: 2, status: 'in_progress' }, options))).toMatch(
      /Step 2 cannot start yet: it depends on step 1 \("A"\), which is pending. Complete or skip step 1 first./,
    );
    expect(errorOf(setStepStatus(p, { stepId: 2, status: 'completed' }, options))).toMatch(/cannot be completed yet/);
    expect(JSON.stringify(p)).toBe(before);
  });

  it('allows at most maxInProgress steps in progress', () => {
    const p = okPlan(setStepStatus(plan([{ title: 'a' }, { title: 'b' }, { title: 'c' }]), { stepId: 1, status: 'in_progress' }, options));
    expect(errorOf(setStepStatus(p, { stepId: 2, status: 'in_progress' }, options))).toMatch(/At most 1 step may be in progress.*steps 1, 2/);
    const two = defaultEngineOptions({ maxInProgress: 2, now: options.now });
    const q = okPlan(setStepStatus(p, { stepId: 2, status: 'in_progress' }, two));
    expect(errorOf(setStepStatus(q, { stepId: 3, status: 'in_progress' }, two))).toMatch(/At most 2 steps/);
  });

  it('treats a repeated status as a no-op without a new version', () => {
    const p = okPlan(setStepStatus(three(), { stepId: 1, status: 'in_progress' }, options));
    const again = setStepStatus(p, { stepId: 1, status: 'in_progress' }, options);
    expect(again).toEqual({ ok: true, plan: p, change: '' });
  });

  it('keeps completed and skipped final in strict mode but not in free mode', () => {
    const p = okPlan(setStepStatus(three(), { stepId: 1, status: 'completed' }, options));
    expect(errorOf(setStepStatus(p, { stepId: 1, status: 'in_progress' }, options))).toMatch(/already completed, which is final/);
    expect(okPlan(editStep(p, { stepId: 1, status: 'pending', mode: 'free' }, options)).steps[0]?.status).toBe('pending');
  });

  it('names the existing ids when a step does not exist', () => {
    expect(errorOf(setStepStatus(three(), { stepId: 9, status: 'completed' }, options))).toBe('Step 9 does not exist. Existing steps: 1–3.');
  });

  it('renames with the same title rules', () => {
    const p = three();
    expect(okPlan(editStep(p, { stepId: 2, title: '  New B ' }, options)).steps[1]?.title).toBe('New B');
    expect(errorOf(editStep(p, { stepId: 2, title: '   ' }, options))).toMatch(/new title is empty/);
  });
});

describe('adding and rewriting steps', () => {
  it('adds after a step with the next id and never reuses ids', () => {
    let p = three();
    p = okPlan(insertStep(p, { title: 'B2' }, { kind: 'after', stepId: 2 }, options));
    expect(p.steps.map((s) => s.id)).toEqual([1, 2, 4, 3]);
    p = okPlan(insertStep(p, { title: 'first' }, { kind: 'start' }, options));
    expect(p.steps[0]).toMatchObject({ id: 5, title: 'first' });
    expect(errorOf(insertStep(p, { title: 'x' }, { kind: 'after', stepId: 42 }, options))).toMatch(/Cannot add after step 42/);
  });

  it('places children after their parent subtree', () => {
    let p = plan([{ id: 1, title: 'P' }, { id: 2, title: 'Q' }]);
    p = okPlan(addSteps(p, [{ id: 3, title: 'P.1', parentId: 1 }, { id: 4, title: 'P.1.a', parentId: 3 }, { id: 5, title: 'P.2', parentId: 1 }], options));
    expect(p.steps.map((s) => s.title)).toEqual(['P', 'P.1', 'P.1.a', 'P.2', 'Q']);
  });

  it('checklist rewrite keeps ids of unchanged text and never reuses removed ids', () => {
    let p = okPlan(createPlan({ id: 'c', dialect: 'checklist', goal: 'g', steps: [{ title: 'A' }, { title: 'B' }, { title: 'C' }] }, 0, options));
    p = okPlan(rewriteSteps(p, [{ title: ' A ', status: 'completed' }, { title: 'B', status: 'in_progress' }], undefined, options));
    expect(p.steps.map((s) => [s.id, s.status])).toEqual([[1, 'completed'], [2, 'in_progress']]);
    p = okPlan(rewriteSteps(p, [{ title: 'A', status: 'completed' }, { title: 'B', status: 'in_progress' }, { title: 'D', status: 'pending' }], undefined, options));
    expect(p.steps.map((s) => s.id)).toEqual([1, 2, 4]);
    const same = rewriteSteps(p, [{ title: 'A', status: 'completed' }, { title: 'B', status: 'in_progress' }, { title: 'D', status: 'pending' }], undefined, options);
    expect(same.ok && same.plan).toBe(p);
  });
});

describe('closing a plan', () => {
  it('complete_plan is accepted after auto-completion and then the plan is closed', () => {
    let p = okPlan(setStepStatus(plan([{ title: 'a' }]), { stepId: 1, status: 'completed' }, options));
    expect(p.status).toBe('completed');
    p = okPlan(completePlan(p, { status: 'partial_success', summary: ' done ', issues: ['x'] }, options));
    expect(p.status).toBe('partial');
    expect(p.completion?.summary).toBe('done');
    expect(errorOf(completePlan(p, { status: 'success', summary: 's', issues: [] }, options))).toMatch(/already finished/);
    expect(errorOf(insertStep(p, { title: 'more' }, { kind: 'end' }, options))).toMatch(/already finished/);
  });

  it('cancels an active plan and keeps the reason on the running step', () => {
    const p = okPlan(setStepStatus(three(), { stepId: 1, status: 'in_progress' }, options));
    const c = okPlan(cancelPlan(p, 'user aborted', options));
    expect(c.status).toBe('cancelled');
    expect(c.steps[0]?.reason).toBe('user aborted');
    expect(errorOf(cancelPlan(c, 'again', options))).toMatch(/Only an active plan/);
  });

  it('records attempts on a step', () => {
    const attempt = { at: 't', tool: 'run_command', inputSummary: 'npm test', error: 'boom', errorClass: 'timeout', strategy: 'retry_with_modification', outcome: 'retrying', durationMs: 5 } as const;
    const p = okPlan(recordAttempt(three(), 2, attempt, options));
    expect(p.steps[1]?.attempts).toEqual([attempt]);
  });
});

describe('snapshots', () => {
  it('are frozen: mutating a returned plan throws and cannot affect the engine', () => {
    const p = three();
    expect(() => {
      (p.steps as unknown as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      (p.steps[0] as { title: string }).title = 'hacked';
    }).toThrow(TypeError);
    expect(p.steps[0]?.title).toBe('A');
  });
});

describe('helpers', () => {
  it('summary percent rounds', () => {
    expect(computeSummary([{ status: 'completed' }, { status: 'pending' }, { status: 'pending' }]).percent).toBe(33);
    expect(computeSummary([]).percent).toBe(0);
  });
  it('finds a long cycle in a large graph quickly', () => {
    const n = 5_000;
    const nodes = Array.from({ length: n }, (_, i) => ({ id: i + 1, dependsOn: i === 0 ? [n] : [i] }));
    const cycle = findDependencyCycle(nodes);
    expect(cycle?.length).toBe(n + 1);
    expect(findDependencyCycle(nodes.map((node, i) => (i === 0 ? { id: 1, dependsOn: [] } : node)))).toBeNull();
  });
});

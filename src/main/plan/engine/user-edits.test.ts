import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plan';
import type { UserEdit } from '../../../shared/plan-edit';
import { cancelPlan, completePlan } from './close-plan';
import { createPlan, type StepDraft } from './create-plan';
import { defaultEngineOptions, type OpResult } from './engine-types';
import { recordStepCall } from './step-calls';
import { editStep, setStepStatus } from './step-status';
import { applyUserEdit } from './user-edits';

const options = defaultEngineOptions({ now: () => new Date('2025-01-01T00:00:00Z') });

function plan(steps: StepDraft[]): Plan {
  const result = createPlan({ id: 'p1', dialect: 'structured', goal: 'Goal', steps }, 0, options);
  if (!result.ok) throw new Error(result.error);
  return result.plan;
}
const okPlan = (result: OpResult): Plan => {
  if (!result.ok) throw new Error(result.error);
  return result.plan;
};
const errorOf = (result: OpResult): string => {
  if (result.ok) throw new Error(`expected a refusal, got v${result.plan.version}: ${result.change}`);
  return result.error;
};
const edit = (p: Plan, e: UserEdit, version = p.version) => applyUserEdit(p, { planId: p.id, version, edit: e }, options);
const four = () => plan([{ id: 1, title: 'Read' }, { id: 2, title: 'Change' }, { id: 3, title: 'Test', dependsOn: [2] }, { id: 4, title: 'Ship' }]);
const titles = (p: Plan) => p.steps.map((s) => `${s.id}:${s.title}:${s.status}`);

describe('user edits', () => {
  it('rename: a new title, trimmed, recorded with the old one; the same title changes nothing', () => {
    const p = four();
    const renamed = edit(p, { kind: 'rename', stepId: 3, title: '  Run the tests  ' });
    expect(renamed).toMatchObject({ ok: true, change: 'You renamed step 3 (was "Test")' });
    const next = okPlan(renamed);
    expect(next.version).toBe(p.version + 1);
    expect(next.steps[2]?.title).toBe('Run the tests');
    expect(next.edits).toEqual([{ version: next.version, at: '2025-01-01T00:00:00.000Z', kind: 'rename', stepId: 3, title: 'Run the tests', from: 'Test' }]);
    expect(edit(next, { kind: 'rename', stepId: 3, title: 'Run the tests' })).toEqual({ ok: true, plan: next, change: '' });
  });

  it.each([
    ['', /The new title is empty/],
    ['   ', /The new title is empty/],
    ['x'.repeat(501), /The new title is 501 characters long; the limit is 500/],
  ])('rename to %j is refused and changes nothing', (title, message) => {
    const p = four();
    expect(errorOf(edit(p, { kind: 'rename', stepId: 1, title }))).toMatch(message);
    expect(okPlan(edit(p, { kind: 'rename', stepId: 1, title: 'y'.repeat(500) })).steps[0]?.title).toHaveLength(500);
  });

  it('skip: a pending, running or failed step is skipped by the user; a done one is refused', () => {
    let p = okPlan(setStepStatus(four(), { stepId: 1, status: 'in_progress' }, options));
    p = okPlan(edit(p, { kind: 'skip', stepId: 1 }));
    expect(p.steps[0]).toMatchObject({ status: 'skipped', reason: 'Skipped by the user.' });
    expect(errorOf(edit(p, { kind: 'skip', stepId: 1 }))).toBe('Step 1 is already skipped; there is nothing to skip.');
    p = okPlan(setStepStatus(p, { stepId: 2, status: 'in_progress' }, options));
    p = okPlan(setStepStatus(p, { stepId: 2, status: 'completed' }, options));
    expect(errorOf(edit(p, { kind: 'skip', stepId: 2 }))).toBe('Step 2 is already completed; there is nothing to skip.');
  });

  it('delete: only a pending step nothing depends on; its id is never used again', () => {
    const p = four();
    expect(errorOf(edit(p, { kind: 'delete', stepId: 2 }))).toBe('Step 3 "Test" depends on step 2, so step 2 can\'t be deleted.');
    const deleted = okPlan(edit(p, { kind: 'delete', stepId: 4 }));
    expect(titles(deleted)).toEqual(['1:Read:pending', '2:Change:pending', '3:Test:pending']);
    const added = okPlan(edit(deleted, { kind: 'add', title: 'Tag the release' }));
    // One more than the highest id the plan has ever used: 4 was deleted, so 5.
    expect(added.steps.at(-1)).toMatchObject({ id: 5, title: 'Tag the release', status: 'pending' });
    const running = okPlan(setStepStatus(p, { stepId: 1, status: 'in_progress' }, options));
    expect(errorOf(edit(running, { kind: 'delete', stepId: 1 }))).toBe('Step 1 is in progress; only a pending step can be deleted (skip it instead).');
    const parent = plan([{ id: 1, title: 'Parent' }, { id: 2, title: 'Child', parentId: 1 }]);
    expect(errorOf(edit(parent, { kind: 'delete', stepId: 1 }))).toBe('Step 1 has sub-steps (2); delete them first.');
  });

  it('move: a pending step swaps with the nearest pending step above or below; not past the ends, not above what it depends on', () => {
    let p = okPlan(setStepStatus(four(), { stepId: 2, status: 'in_progress' }, options));
    // 4 moves up past the running step 2? No: it swaps with the nearest *pending* one, 3 — but 3 is not what 4 depends on.
    const moved = okPlan(edit(p, { kind: 'move', stepId: 4, direction: 'up' }));
    expect(titles(moved)).toEqual(['1:Read:pending', '2:Change:in_progress', '4:Ship:pending', '3:Test:pending']);
    expect(moved.edits?.at(-1)).toMatchObject({ kind: 'move', stepId: 4, direction: 'up', swappedWith: 3 });
    const down = okPlan(edit(moved, { kind: 'move', stepId: 1, direction: 'down' }));
    expect(titles(down).map((t) => t.split(':')[0])).toEqual(['4', '2', '1', '3']);
    expect(errorOf(edit(p, { kind: 'move', stepId: 1, direction: 'up' }))).toBe("Step 1 is already the first pending step at its level, so it can't move up.");
    expect(errorOf(edit(p, { kind: 'move', stepId: 4, direction: 'down' }))).toBe("Step 4 is already the last pending step at its level, so it can't move down.");
    expect(errorOf(edit(p, { kind: 'move', stepId: 2, direction: 'down' }))).toBe('Step 2 is in progress; only pending steps can be moved.');
    p = four();
    expect(errorOf(edit(p, { kind: 'move', stepId: 3, direction: 'up' }))).toBe("Step 3 depends on step 2, so it can't move above it.");
    expect(errorOf(edit(p, { kind: 'move', stepId: 2, direction: 'down' }))).toBe("Step 3 depends on step 2, so it can't move above it.");
  });

  it('move: sub-steps travel with their parent, and a sub-step moves only among its siblings', () => {
    const p = plan([
      { id: 1, title: 'A' },
      { id: 2, title: 'A.1', parentId: 1 },
      { id: 3, title: 'B' },
      { id: 4, title: 'B.1', parentId: 3 },
      { id: 5, title: 'B.2', parentId: 3 },
    ]);
    expect(okPlan(edit(p, { kind: 'move', stepId: 3, direction: 'up' })).steps.map((s) => s.id)).toEqual([3, 4, 5, 1, 2]);
    expect(okPlan(edit(p, { kind: 'move', stepId: 5, direction: 'up' })).steps.map((s) => s.id)).toEqual([1, 2, 3, 5, 4]);
    expect(errorOf(edit(p, { kind: 'move', stepId: 4, direction: 'up' }))).toMatch(/first pending step at its level/);
  });

  it('an edit on an older version is applied when nobody touched the same step since, refused with the reason when someone did', () => {
    const p = four();
    const tabA = okPlan(edit(p, { kind: 'rename', stepId: 1, title: 'Read the code' }));
    // Tab B still shows version p.version: skipping another step still makes sense.
    const tabB = okPlan(edit(tabA, { kind: 'skip', stepId: 4 }, p.version));
    expect(tabB.version).toBe(tabA.version + 1);
    // Renaming the step tab A renamed: stale, refused with what happened.
    expect(errorOf(edit(tabB, { kind: 'rename', stepId: 1, title: 'Read everything' }, p.version))).toBe(
      'The plan changed since you looked at it (renamed 1 "Read" to "Read the code"), so your edit was not applied. Look at the plan as it is now and edit again.',
    );
    // A move on a list that another edit reshaped since is refused too; an add never clashes.
    expect(errorOf(edit(tabB, { kind: 'move', stepId: 2, direction: 'up' }, p.version))).toMatch(/skipped 4 "Ship"/);
    expect(edit(tabB, { kind: 'add', title: 'More' }, p.version).ok).toBe(true);
    // Claude's change since is checked by the rules: the step is running now, so it can't be deleted.
    const started = okPlan(setStepStatus(tabB, { stepId: 2, status: 'in_progress' }, options));
    expect(errorOf(edit(started, { kind: 'delete', stepId: 2 }, p.version))).toMatch(/only a pending step can be deleted/);
    expect(errorOf(edit(started, { kind: 'skip', stepId: 1 }, started.version + 1))).toMatch(/names version \d+, but the plan is at version/);
  });

  it('refuses edits of a finished, cancelled or replaced plan, and of steps that do not exist', () => {
    const p = four();
    const cancelled = okPlan(cancelPlan(p, 'stop', options));
    expect(errorOf(edit(cancelled, { kind: 'add', title: 'x' }))).toBe("This plan is cancelled, so it can't be edited any more.");
    const closed = okPlan(completePlan(p, { status: 'partial_success', summary: 'enough', issues: [] }, options));
    expect(errorOf(edit(closed, { kind: 'skip', stepId: 1 }))).toBe("This plan is finished (partial), so it can't be edited any more.");
    expect(errorOf(applyUserEdit(p, { planId: 'other', version: p.version, edit: { kind: 'skip', stepId: 1 } }, options))).toMatch(/replaced the plan/);
    expect(errorOf(applyUserEdit(null, { planId: 'p1', version: 1, edit: { kind: 'skip', stepId: 1 } }, options))).toBe('There is no plan to edit in this chat.');
    expect(errorOf(edit(p, { kind: 'skip', stepId: 9 }))).toBe('Step 9 does not exist.');
  });
});

describe("Claude's calls after the user's edits", () => {
  it('starting, completing or failing a step the user skipped is refused, saying so', () => {
    const p = okPlan(edit(four(), { kind: 'skip', stepId: 1 }));
    for (const status of ['in_progress', 'completed', 'failed'] as const) {
      expect(errorOf(setStepStatus(p, { stepId: 1, status }, options))).toBe(
        'The user skipped step 1 "Read", so it can\'t be started, completed or failed. Leave it skipped and go on with the other steps.',
      );
      expect(errorOf(editStep(p, { stepId: 1, status, mode: 'free' }, options))).toMatch(/The user skipped step 1/);
    }
  });

  it('a step the user deleted is refused by id, naming it', () => {
    const p = okPlan(edit(four(), { kind: 'delete', stepId: 4 }));
    expect(errorOf(setStepStatus(p, { stepId: 4, status: 'in_progress' }, options))).toBe(
      'The user deleted step 4 "Ship" from the plan, so it can\'t be started, completed, failed or changed. Go on with the other steps.',
    );
  });

  it('a verification step completes only after a tool call made while it was in progress', () => {
    let p = plan([{ id: 1, title: 'Check it', isVerification: true }]);
    p = okPlan(setStepStatus(p, { stepId: 1, status: 'in_progress' }, options));
    expect(errorOf(setStepStatus(p, { stepId: 1, status: 'completed' }, options))).toMatch(
      /^Step 1 "Check it" is a verification step: it can't be completed without at least one tool call made while it is in progress\./,
    );
    p = okPlan(recordStepCall(p, 1, { at: '2025-01-01T00:00:00Z', tool: 'run_command', summary: 'Run npm test', durationMs: 1200, ok: false, costUsd: 0.002 }, options));
    expect(p.steps[0]?.calls).toHaveLength(1);
    expect(okPlan(setStepStatus(p, { stepId: 1, status: 'completed' }, options)).status).toBe('completed');
  });
});

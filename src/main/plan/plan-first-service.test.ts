import { afterEach, describe, expect, it } from 'vitest';
import type { Dialect } from '../../shared/plan';
import { errorOf, planHarness } from '../../../test-support/main/plan-test-kit';

// Plan first at the plan service (docs/contract.md §2): in a plan-first chat a new plan is a proposal;
// until the user approves the version they saw, Claude's planning calls may shape it but not
// work on it, in every dialect; the results tell Claude to end its turn.

let h = planHarness({ planFirst: () => true });
afterEach(() => h.cleanup());
const fresh = (planFirst = true) => {
  h.cleanup();
  h = planHarness({ planFirst: () => planFirst });
  return h;
};
const PROPOSED = "proposed; awaiting the user's approval — end your turn";
const plan = () => h.service.getPlan('s1')!;
const approve = () => h.service.reviewPlan('s1', plan().id, plan().version, { kind: 'approve' });

describe('plan first in the plan service', () => {
  it('structured: create_plan proposes; starting a step is refused until the user approves the version they saw', async () => {
    fresh();
    const created = await h.must('structured', 'create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Build' }, { step_number: 2, description: 'Tag' }] });
    expect(created).toContain(`Plan version 1 ${PROPOSED}.`);
    expect(plan().review).toEqual({ state: 'proposed' });
    expect(errorOf(await h.call('structured', 'update_plan', { action: 'start_step', step_number: 1 }))).toMatch(
      /^The plan \(version 1\) is a proposal awaiting the user's approval: .* not start, complete, fail or skip a step.* End your turn/,
    );
    expect(errorOf(await h.call('structured', 'complete_plan', { status: 'success', summary: 'done' }))).toMatch(/proposal awaiting the user's approval/);
    // Shaping is fine, and says so again.
    expect(await h.must('structured', 'update_plan', { action: 'add_step', new_step: { description: 'Announce' } })).toContain(PROPOSED);
    const seen = plan().version;
    // Feedback keeps it a proposal (with the feedback); an approval naming an older version is refused.
    expect(h.service.reviewPlan('s1', plan().id, seen, { kind: 'revise', feedback: 'Add a changelog step' }).ok).toBe(true);
    expect(plan().review).toMatchObject({ state: 'proposed', feedback: { text: 'Add a changelog step', version: seen } });
    const stale = h.service.reviewPlan('s1', plan().id, seen, { kind: 'approve' });
    expect(stale).toEqual({ ok: false, error: `The proposal changed since you looked at it (you saw version ${seen}; it is at version ${seen + 1} now). Review it again.` });
    // Claude revises: a new create_plan replaces the proposal; approving the old plan is refused.
    const oldId = plan().id;
    await h.must('structured', 'create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Build' }, { step_number: 2, description: 'Changelog' }] });
    expect(plan().id).not.toBe(oldId);
    expect(h.service.reviewPlan('s1', oldId, plan().version, { kind: 'approve' })).toMatchObject({ ok: false, error: expect.stringMatching(/replaced the proposal/) });
    const approvedAt = plan().version;
    expect(approve()).toMatchObject({ ok: true, change: `You approved the plan (version ${approvedAt})` });
    expect(plan().review).toMatchObject({ state: 'approved', version: approvedAt });
    expect(h.events.at(-1)?.change).toMatchObject({ kind: 'review', by: 'user', action: 'approve' });
    expect(approve()).toMatchObject({ ok: false, error: expect.stringMatching(/already approved/) });
    expect(await h.must('structured', 'update_plan', { action: 'start_step', step_number: 1 })).not.toContain(PROPOSED);
    // A new plan in this chat is a proposal again: the chat stays in plan-first mode.
    await h.must('structured', 'create_plan', { goal: 'Next', steps: [{ step_number: 1, description: 'More' }] });
    expect(plan().review).toEqual({ state: 'proposed' });
  });

  it('checklist: a new list must be all pending, and stays so until approved; the result stays JSON', async () => {
    fresh();
    const list = (first: string) => ({ plan: [{ step: 'Write', status: first }, { step: 'Test', status: 'pending' }] });
    expect(errorOf(await h.call('checklist', 'update_plan', list('in_progress')))).toMatch(/plan-first mode.*step 1 is in progress/);
    expect(h.service.getPlan('s1')).toBeNull();
    const result = JSON.parse(await h.must('checklist', 'update_plan', list('pending')));
    expect(result).toMatchObject({ success: true, version: 1, approval: expect.stringContaining(PROPOSED) });
    expect(errorOf(await h.call('checklist', 'update_plan', list('in_progress')))).toMatch(/proposal awaiting the user's approval/);
    expect(approve().ok).toBe(true);
    expect(JSON.parse(await h.must('checklist', 'update_plan', list('in_progress')))).not.toHaveProperty('approval');
  });

  it('wbs: planning_initialize proposes (add the items first), items shape it, finalize waits for approval', async () => {
    fresh();
    const init = JSON.parse(await h.must('wbs', 'planning_initialize', { problem_statement: 'Build a CLI', project_name: 'CLI' }));
    expect(init.approval).toContain(`${PROPOSED}. (Add its steps first.)`);
    const item = { id: '1.0', title: 'Parse flags', level: 0, priority: 'High' };
    await h.must('wbs', 'planning_add_step', { session_id: init.sessionId, step_number: 1, planning_analysis: 'x', wbs_items: [item] });
    expect(errorOf(await h.call('wbs', 'planning_finalize', { session_id: init.sessionId }))).toMatch(/proposal awaiting the user's approval/);
    expect(approve().ok).toBe(true);
    await h.must('wbs', 'planning_finalize', { session_id: init.sessionId });
    expect(plan().status).toBe('completed');
  });

  it('session: setup proposes; update_step may rename but not start a step until approved', async () => {
    fresh();
    expect(JSON.parse(await h.must('session', 'planning_setup_plan', { objective: 'Ship', initial_steps: ['Build'] })).approval).toContain(PROPOSED);
    expect(errorOf(await h.call('session', 'planning_update_step', { step_id: 1, status: 'in_progress' }))).toMatch(/proposal awaiting/);
    await h.must('session', 'planning_update_step', { step_id: 1, title: 'Build it' });
    expect(approve().ok).toBe(true);
    await h.must('session', 'planning_update_step', { step_id: 1, status: 'in_progress' });
  });

  it.each<Dialect>(['structured', 'checklist', 'wbs', 'session'])('%s: without plan first nothing is a proposal', async (dialect) => {
    fresh(false);
    const calls: Record<Dialect, [string, unknown]> = {
      structured: ['create_plan', { goal: 'g', steps: [{ step_number: 1, description: 'a' }] }],
      checklist: ['update_plan', { plan: [{ step: 'a', status: 'pending' }] }],
      wbs: ['planning_initialize', { problem_statement: 'p' }],
      session: ['planning_setup_plan', { objective: 'o', initial_steps: ['a'] }],
    };
    const [name, input] = calls[dialect];
    expect(await h.must(dialect, name, input)).not.toContain(PROPOSED);
    expect(plan().review).toBeUndefined();
    expect(h.service.reviewPlan('s1', plan().id, plan().version, { kind: 'approve' })).toEqual({ ok: false, error: 'There is no proposed plan awaiting your approval in this chat.' });
  });
});

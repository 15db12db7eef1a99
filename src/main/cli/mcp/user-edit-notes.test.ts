import { afterEach, describe, expect, it } from 'vitest';
import { planHarness } from '../../../../test-support/main/plan-test-kit';
import { UserEditNotes } from './user-edit-notes';

const harnesses: Array<ReturnType<typeof planHarness>> = [];
afterEach(() => harnesses.splice(0).forEach((h) => h.cleanup()));

describe('user edits reach an MCP client in its next tool result', () => {
  it('every change the user made since the last call, once, naming the steps; Claude\'s own changes and other chats are not news', async () => {
    const h = planHarness();
    harnesses.push(h);
    const notes = new UserEditNotes(h.service.onPlanUpdated, () => 's1');
    await h.must('structured', 'create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Bump the version' }, { step_number: 2, description: 'Publish' }] });
    await h.must('structured', 'create_plan', { goal: 'Other', steps: [{ step_number: 1, description: 'Elsewhere' }] }, 's2');
    expect(notes.take()).toBeNull();

    // The user's changes (here the answers to an escalation; issue 14's edits take the same path).
    h.service.skipStep('s1', 1, 'Not needed', { kind: 'escalation', by: 'user', answer: 'skip' });
    h.service.skipStep('s2', 1, 'Not needed', { kind: 'escalation', by: 'user', answer: 'skip' });
    h.service.cancelPlan('s1', 'The user aborted it');
    expect(notes.take()).toBe('The user edited the plan: step 1 “Bump the version” skipped; cancelled plan: The user aborted it.');
    expect(notes.take()).toBeNull();
    notes.dispose();
    h.service.skipStep('s1', 2, 'x', { kind: 'escalation', by: 'user', answer: 'skip' });
    expect(notes.take()).toBeNull();
  });

  it('says the user did what the user did, never "you" (the client did not rename the step)', async () => {
    const h = planHarness();
    harnesses.push(h);
    const notes = new UserEditNotes(h.service.onPlanUpdated, () => 's1');
    await h.must('structured', 'create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Bump the version' }, { step_number: 2, description: 'Publish' }] });
    const plan = h.service.getPlan('s1');
    if (!plan) throw new Error('no plan');
    expect(h.service.editPlan('s1', { planId: plan.id, version: plan.version, edit: { kind: 'rename', stepId: 2, title: 'Publish to npm' } }).ok).toBe(true);
    const note = notes.take();
    expect(note).toBe('The user edited the plan: renamed step 2 “Publish to npm” (was "Publish").');
    expect(note).not.toMatch(/\byou\b/i);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { UserEdit } from '../../../shared/plan-edit';
import { errorOf, planHarness } from '../../../../test-support/main/plan-test-kit';

// The checklist dialect sends the whole list each call (docs/contract.md §2): a list that contradicts an
// edit the user made since Claude's last list is refused with the edits repeated, and the plan
// stays as the user left it; once Claude's list includes them, it goes through.

let h = planHarness();
afterEach(() => h.cleanup());
type Item = { step: string; status: 'pending' | 'in_progress' | 'completed' };
const list = (...items: Array<[string, Item['status']?]>) => ({ plan: items.map(([step, status]) => ({ step, status: status ?? 'pending' })) });
const userEdit = (edit: UserEdit) => {
  const plan = h.service.getPlan('s1')!;
  const result = h.service.editPlan('s1', { planId: plan.id, version: plan.version, edit });
  if (!result.ok) throw new Error(result.error);
};
const titles = () => h.service.getPlan('s1')!.steps.map((s) => `${s.title}:${s.status}`);

async function start() {
  h.cleanup();
  h = planHarness();
  await h.must('checklist', 'update_plan', list(['Write', 'in_progress'], ['Document'], ['Release']));
}

describe('checklist lists after the user edited the plan', () => {
  it('an old title is refused with the edits repeated; the new one goes through and keeps the step', async () => {
    await start();
    userEdit({ kind: 'rename', stepId: 2, title: 'Write the docs' });
    const version = h.service.getPlan('s1')!.version;
    expect(errorOf(await h.call('checklist', 'update_plan', list(['Write', 'completed'], ['Document', 'in_progress'], ['Release'])))).toBe(
      'This list contradicts the user\'s edits since your last list: renamed 2 "Document" to "Write the docs". Send the whole list again with them: the new titles, without the skipped or deleted steps, with the added steps, in the user\'s order.',
    );
    expect(h.service.getPlan('s1')!.version).toBe(version);
    await h.must('checklist', 'update_plan', list(['Write', 'completed'], ['Write the docs', 'in_progress'], ['Release']));
    expect(h.service.getPlan('s1')!.steps.map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('a skipped step listed again is refused; left out, it stays skipped in its place', async () => {
    await start();
    userEdit({ kind: 'skip', stepId: 2 });
    expect(errorOf(await h.call('checklist', 'update_plan', list(['Write', 'completed'], ['Document'], ['Release'])))).toMatch(/skipped 2 "Document"/);
    await h.must('checklist', 'update_plan', list(['Write', 'completed'], ['Release', 'in_progress']));
    expect(titles()).toEqual(['Write:completed', 'Document:skipped', 'Release:in_progress']);
    // Later lists too may not bring it back, even after Claude's list acknowledged the skip.
    expect(errorOf(await h.call('checklist', 'update_plan', list(['Write', 'completed'], ['Document', 'in_progress'], ['Release'])))).toBe(
      'The user skipped step 2 "Document": leave it out of the list (it stays skipped in the plan).',
    );
  });

  it('a user-added step left out, a deleted step listed, a move undone: each refused; the right list goes through', async () => {
    await start();
    userEdit({ kind: 'add', title: 'Announce' });
    expect(errorOf(await h.call('checklist', 'update_plan', list(['Write', 'completed'], ['Document'], ['Release'])))).toMatch(/added 4 "Announce"/);
    await h.must('checklist', 'update_plan', list(['Write', 'completed'], ['Document'], ['Release'], ['Announce']));
    expect(h.service.getPlan('s1')!.steps.at(-1)).toMatchObject({ id: 4, title: 'Announce' });

    userEdit({ kind: 'delete', stepId: 2 });
    expect(errorOf(await h.call('checklist', 'update_plan', list(['Write', 'completed'], ['Document'], ['Release'], ['Announce'])))).toMatch(/deleted 2 "Document"/);
    userEdit({ kind: 'move', stepId: 4, direction: 'up' });
    expect(errorOf(await h.call('checklist', 'update_plan', list(['Write', 'completed'], ['Release', 'in_progress'], ['Announce'])))).toMatch(
      /deleted 2 "Document"; moved 4 "Announce" up/,
    );
    await h.must('checklist', 'update_plan', list(['Write', 'completed'], ['Announce', 'in_progress'], ['Release']));
    expect(titles()).toEqual(['Write:completed', 'Announce:in_progress', 'Release:pending']);
  });
});

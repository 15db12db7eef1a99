import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { planHarness } from '../../../../test-support/main/plan-test-kit';

/** Tool results stay small: a one-step update answers with that step, not the whole plan. */
describe('compact planning results', () => {
  let h = planHarness();
  afterEach(() => {
    h.cleanup();
    h = planHarness();
  });

  const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ step_number: i + 1, description: `Step number ${i + 1} of the work` }));

  it('structured update_plan: the changed step, counts and next hint; the whole plan every 10th version', async () => {
    const created = await h.must('structured', 'create_plan', { goal: 'Big job', steps: steps(30) });
    expect(created.split('\n').filter((l) => l.startsWith('[ ]'))).toHaveLength(30);
    const started = await h.must('structured', 'update_plan', { action: 'start_step', step_number: 1 });
    expect(started).toBe('Updated plan: step 1 started\nPlan v2 (active): 0/30 steps completed (0%)\n[>] 1. Step number 1 of the work\nCurrent: step 1.');
    const done = await h.must('structured', 'update_plan', { action: 'complete_step', step_number: 1, result: 'ok' });
    expect(done).toBe('Updated plan: step 1 completed\nPlan v3 (active): 1/30 steps completed (3%)\n[x] 1. Step number 1 of the work\nNext: step 2.');
    const added = await h.must('structured', 'update_plan', { action: 'add_step', new_step: { description: 'Extra check', after_step: 1 } });
    expect(added).toBe('Updated plan: step 31 added\nPlan v4 (active): 1/31 steps completed (3%)\n[ ] 31. Extra check\nNext: step 31.');
    const noted = await h.must('structured', 'update_plan', { action: 'note', step_number: 2, note: 'seen' });
    expect(noted).toMatch(/^Updated plan: note on step 2\nPlan v5 \(active\): 1\/31 steps completed \(3%\)\n\[ \] 2\. Step number 2/);
    expect(started.length + done.length + added.length + noted.length).toBeLessThan(created.length / 2);
    let last = '';
    while (h.service.getPlan('s1')!.version < 10) {
      last = await h.must('structured', 'update_plan', { action: 'note', step_number: 31, note: 'again' });
    }
    expect(last).toMatch(/^Updated plan: note on step 31\nPlan v10 \(active\) "Big job": 1\/31 steps completed/);
    expect(last.split('\n').filter((l) => /^\[[ x>!-]\]/.test(l))).toHaveLength(31);
  });

  it('wbs: planning_status leaves an up-to-date WBS.md alone, but rewrites it once the plan changes', async () => {
    const init = JSON.parse(await h.must('wbs', 'planning_initialize', { problem_statement: 'Build a game', project_name: 'Game' }));
    const path = init.outputPath as string;
    const add = (n: number, id: string) =>
      h.must('wbs', 'planning_add_step', { session_id: init.sessionId, step_number: n, planning_analysis: 'a', wbs_items: [{ id, title: `Item ${id}`, level: 0, priority: 'High' }] });
    await add(1, '1.0');
    const written = statSync(path).mtimeMs;
    writeFileSync(path, 'edited by hand\n'); // proves the next status call does not rewrite
    const mtime = statSync(path).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await h.must('wbs', 'planning_status', { session_id: init.sessionId });
    expect(statSync(path).mtimeMs).toBe(mtime);
    expect(mtime).toBeGreaterThanOrEqual(written);
    await add(2, '2.0');
    expect(readFileSync(path, 'utf8')).toContain('**Item 2.0**');
    expect(readFileSync(path, 'utf8')).toContain('- **Steps**: 2\n- **WBS Items**: 2\n');
  });
});

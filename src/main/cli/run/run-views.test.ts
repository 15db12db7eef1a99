import { afterEach, describe, expect, it } from 'vitest';
import { planHarness } from '../../../../test-support/main/plan-test-kit';
import { LinesView } from './run-views';

const grid = {
  goal: 'Lay out the grid',
  steps: [
    { step_number: 1, description: 'Draw the vertical lines' },
    { step_number: 2, description: 'Draw the horizontal lines' },
    { step_number: 3, description: 'Check the layout' },
  ],
};

/** What a LinesView writes to stdout. */
function linesOf(sessionId: string) {
  let out = '';
  const view = new LinesView(sessionId, null, { stdout: { write: (text: string) => ((out += text), true) }, stderr: { write: () => true } } as never);
  return { view, lines: () => out.split('\n') };
}

describe('LinesView step numbers', () => {
  const h = planHarness();
  afterEach(() => h.cleanup());

  it('numbers a step added after step 1 as the panel does (2), not by its id (4), in the plan lines and "now:"', async () => {
    await h.must('structured', 'create_plan', grid);
    await h.must('structured', 'update_plan', { action: 'add_step', new_step: { description: 'Label the lines', after_step: 1 } });
    await h.must('structured', 'update_plan', { action: 'start_step', step_number: 4 });
    const { view, lines } = linesOf('s1');
    for (const update of h.events) view.event({ type: 'plan_updated', ...update });
    const out = lines();
    expect(out).toContain('» Plan: Updated plan: step 2 “Label the lines” started');
    expect(out.at(-2)).toMatch(/now: step 2 "Label the lines"$/);
    expect(out.join('\n')).not.toMatch(/step 4/);
  });
});

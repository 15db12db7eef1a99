import type { ScriptedTurn } from '../test-support/scripted-api/scenario';
import { expect, test } from './support/fixtures';
import { planPanel, send } from './support/plan-panel';

// The goal check (issue 25) as a person sees it: a completed plan's card says "Goal check: not
// met" with the findings, the "Fix: …" step shows in the panel and completes, and the next
// completion's card says "Goal check: met". Settings "Goal checks" is found by its label.

const update = (action: string, step: number, result?: string) => ({ name: 'update_plan', input: { action, step_number: step, ...(result ? { result } : {}) } });
const FINDING = 'The greeting is misspelled';
const turns: ScriptedTurn[] = [
  { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'Greet the world', steps: [{ step_number: 1, description: 'Write the greeting', success_criteria: 'It reads "hello world"' }] } }] },
  { kind: 'tool_use', calls: [update('start_step', 1), update('complete_step', 1, 'Wrote helo world')] },
  { kind: 'tool_use', calls: [{ name: 'complete_plan', input: { status: 'success', summary: 'Greeting written.' } }] },
  { kind: 'text', text: 'Done.' },
  { kind: 'tool_use', calls: [{ name: 'report_goal_check', input: { met: false, findings: [FINDING] } }] },
  { kind: 'tool_use', text: 'Fixing it.', calls: [update('start_step', 2)] },
  { kind: 'tool_use', calls: [update('complete_step', 2, 'Fixed the spelling')] },
  { kind: 'tool_use', calls: [{ name: 'complete_plan', input: { status: 'success', summary: 'Greeting fixed.' } }] },
  { kind: 'text', text: 'Fixed.' },
  { kind: 'tool_use', calls: [{ name: 'report_goal_check', input: { met: true, findings: [] } }] },
];

test.use({ scenario: { name: 'goal-check', gated: true, onExhausted: 'error', turns } });

test('a goal check not met reopens the plan with a Fix step; the fixed plan is checked again and met', async ({ app, scripted }) => {
  // Settings "Goal checks": refused outside 0–5 in the field, then two rounds.
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = app.getByRole('dialog');
  await expect(dialog.getByLabel('Goal checks', { exact: true })).toHaveValue('1');
  await dialog.getByLabel('Goal checks', { exact: true }).fill('6');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toContainText("Goal checks can't be more than 5: enter a number from 0 to 5.");
  await dialog.getByLabel('Goal checks', { exact: true }).fill('2');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  await send(app, 'Write the greeting.');
  // Up to Claude starting the Fix step: plan, work, complete_plan, reply, the check, start_step 2.
  await scripted.release(6);
  const first = app.getByRole('region', { name: 'Plan completed', exact: true }).first();
  await expect(first.getByRole('heading', { name: 'Goal check: not met', exact: true })).toBeVisible();
  await expect(first).toContainText(FINDING);
  const panel = planPanel(app);
  await expect(panel.step(`Fix: ${FINDING}`)).toHaveAttribute('data-status', 'in_progress');

  await scripted.release(4);
  await expect(app.getByText('Fixed.', { exact: true })).toBeVisible();
  const second = app.getByRole('region', { name: 'Plan completed', exact: true }).last();
  await expect(second.getByRole('heading', { name: 'Goal check: met', exact: true })).toBeVisible();
  await expect(second.getByRole('listitem').filter({ hasText: `Fix: ${FINDING}` })).toHaveAttribute('data-status', 'completed');
  await expect(panel.region).toHaveCount(0);
  // The first card still says what the first check found.
  await expect(first.getByRole('heading', { name: 'Goal check: not met', exact: true })).toBeVisible();
  expect(scripted.requests.filter((r) => (r.body as { tool_choice?: { name?: string } }).tool_choice?.name === 'report_goal_check')).toHaveLength(2);
});

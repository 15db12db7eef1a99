import { startScriptedServer } from '../test-support/scripted-api/server';
import type { ScriptedTurn } from '../test-support/scripted-api/scenario';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { openNewChat, planPanel, send } from './support/plan-panel';

// Plan budgets in the web shell (docs/contract.md §9, names exact): a small budget in Settings, a
// plan runs and stops at "Budget reached"; "$S of $B" and the panel's "Budget" button; "Extend
// budget" goes on to the end. A second run: "End plan" ends it partly done, nothing more is sent.
test.describe.configure({ timeout: 120_000 });

const use = (name: string, input: unknown): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name, input }] });
const fourSteps = (goal: string): ScriptedTurn[] => [
  use('create_plan', { goal, steps: [1, 2, 3, 4].map((n) => ({ step_number: n, description: `${goal}: part ${n}` })) }),
  ...[1, 2, 3, 4].flatMap((n) => [use('update_plan', { action: 'start_step', step_number: n }), use('update_plan', { action: 'complete_step', step_number: n, result: `part ${n} done` })]),
  { kind: 'text', text: `${goal}: all done.` },
];

test('a plan stops at its budget; "Budget" and "Extend budget" go on; a second plan ends at "End plan"', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'budget', turns: [...fourSteps('Tidy the notes'), ...fourSteps('Sort the files')], onExhausted: 'echo' } });
  // About two requests' worth at the default model's prices.
  const shell = await startPersistentShell(scripted.url, { settings: { planBudgetUsd: 0.03 } });
  try {
    await page.goto(shell.current.url);
    const panel = planPanel(page);
    await send(page, 'Tidy the notes');

    const stop = page.getByRole('alertdialog', { name: /Budget reached/ });
    await expect(stop).toBeVisible();
    await expect(stop).toContainText(/Spent \$\d+\.\d\d of \$0\.03/);
    await expect(panel.region.getByText(/^\$\d+\.\d\d of \$0\.03$/)).toBeVisible();
    const sent = scripted.requests.length;
    expect(sent).toBeLessThan(10);
    await expectAccessibleInBothSchemes(page, 'Budget reached');

    // The panel's "Budget": a bad figure is refused in words; a good one is saved and shown.
    await panel.region.getByRole('button', { name: 'Budget', exact: true }).click();
    const field = panel.region.getByRole('textbox', { name: 'Budget (USD)', exact: true });
    await field.fill('0');
    await panel.region.getByRole('button', { name: 'Save budget', exact: true }).click();
    await expect(panel.region.getByRole('alert').filter({ hasText: 'The budget must be more than $0.' })).toBeVisible();
    await expectAccessibleInBothSchemes(page, 'the Budget field with an error');
    await field.fill('0.04');
    await panel.region.getByRole('button', { name: 'Save budget', exact: true }).click();
    await expect(panel.region.getByText(/^\$\d+\.\d\d of \$0\.04$/)).toBeVisible();

    // "Extend budget" with a figure typed: the run goes on to the end.
    await stop.getByRole('textbox', { name: 'New budget (USD)', exact: true }).fill('5');
    await stop.getByRole('button', { name: 'Extend budget', exact: true }).click();
    await expect(stop).toHaveCount(0);
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('Tidy the notes: all done.')).toBeVisible();
    expect(scripted.requests.length).toBeGreaterThan(sent);

    // A second plan: "End plan" ends it partly done, and Claude is not asked again.
    await openNewChat(page);
    await send(page, 'Sort the files');
    await expect(stop).toBeVisible();
    const before = scripted.requests.length;
    await stop.getByRole('button', { name: 'End plan', exact: true }).click();
    await expect(stop).toHaveCount(0);
    await expect(panel.region).toHaveCount(0);
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText(/Ended at its budget/)).toBeVisible();
    await page.waitForTimeout(500);
    expect(scripted.requests.length).toBe(before);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test('a chat stopped at its budget while another is in view: "Needs you (1)", answered from the dialog (also after a reload) with "End plan"', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'budget-inbox', turns: fourSteps('Tidy the notes'), onExhausted: 'echo' } });
  const shell = await startPersistentShell(scripted.url, { settings: { planBudgetUsd: 0.03 } });
  try {
    await page.goto(shell.current.url);
    await send(page, 'Tidy the notes');
    // Another chat in view while the first one runs to its budget (New chat right after the Send).
    await openNewChat(page);
    const needsYou = page.getByRole('button', { name: 'Needs you (1)', exact: true });
    await expect(needsYou).toBeVisible();
    const sent = scripted.requests.length;
    // After a reload the store knows the chat only by the list's stamp: the dialog asks main for the stop.
    await page.reload();
    await page.getByRole('button', { name: 'Needs you (1)', exact: true }).click();
    const inbox = page.getByRole('dialog', { name: 'Needs you', exact: true });
    const item = inbox.getByRole('listitem', { name: 'Tidy the notes', exact: true });
    await expect(item).toContainText(/Budget reached: spent \$\d+\.\d\d of \$0\.03/);
    await expect(item.getByRole('button', { name: 'Extend budget', exact: true })).toBeVisible();
    await expect(item.getByRole('textbox', { name: 'New budget (USD)', exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(page, 'Budget reached in Needs you');
    await item.getByRole('button', { name: 'End plan', exact: true }).click();
    await expect(item).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Needs you (0)', exact: true })).toBeVisible();
    // "End plan" ends the plan; Claude is not asked again.
    await page.waitForTimeout(500);
    expect(scripted.requests.length).toBe(sent);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

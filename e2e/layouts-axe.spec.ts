import type { Page } from '@playwright/test';
import type { Scenario } from '../test-support/scripted-api/scenario';
import { expectAccessible } from './support/axe';
import { expectFullyInView, expectNoSidewaysScroll } from './support/in-view';
import { expectProgress, planPanel, send } from './support/plan-panel';
import { expect, test } from './support/recovery-fixtures';

// Issue 23: the main screens re-checked at 400, 800, 1280 and 1920 px in both themes, axe at zero —
// a chat with a plan and a pending approval card, the same after the approval, and Settings.
// Each axe run takes seconds on a busy machine, hence the long timeout.
test.describe.configure({ timeout: 480_000 });

const SIZES = [
  { width: 400, height: 800 },
  { width: 800, height: 800 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

const planWithEdit: Scenario = {
  name: 'plan-with-edit',
  gated: true,
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: 'Here is the plan.',
      calls: [
        {
          name: 'create_plan',
          input: {
            goal: 'Make the greeting friendlier',
            steps: [
              { step_number: 1, description: 'Read the greeting' },
              { step_number: 2, description: 'Edit the greeting', depends_on: [1] },
              { step_number: 3, description: 'Check the result', depends_on: [2] },
            ],
          },
        },
      ],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'It says Hi.' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }] },
    { kind: 'tool_use', calls: [{ name: 'edit_file', input: { path: 'greeting.txt', old_text: 'Hi.', new_text: 'Hello, and welcome!' } }] },
    { kind: 'text', text: 'The greeting is friendlier now.' },
  ],
};

async function everySizeAndScheme(page: Page, screen: string, check?: (where: string) => Promise<void>): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const where = `${screen} at ${size.width} px`;
    await expectNoSidewaysScroll(page, where);
    await check?.(where);
    for (const scheme of SCHEMES) await expectAccessible(page, where, scheme);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('the main screens at every size and in both themes', () => {
  test.use({ scenario: planWithEdit, workspaceFiles: { 'greeting.txt': 'Hi.\n' } });

  test('a chat with a plan and an approval card, the chat after it, and Settings: axe finds nothing', async ({ app, scripted }) => {
    await send(app, 'Make the greeting friendlier');
    await scripted.release(5);
    const card = app.getByRole('alertdialog', { name: /Approve/ });
    await expect(card).toBeVisible();
    await expectProgress(app, 1, 3);
    await everySizeAndScheme(app, 'the approval card in a chat with a plan', async (where) => {
      await expect(planPanel(app).region).toBeVisible();
      for (const name of ['Approve', 'Deny']) await expectFullyInView(card.getByRole('button', { name, exact: true }), `${where}: ${name}`);
      // One "New chat" (at 400 px it is in the closed Chats drawer).
      expect(await app.getByRole('button', { name: 'New chat', exact: true }).count(), `${where}: "New chat" buttons`).toBeLessThanOrEqual(1);
    });

    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await scripted.release(1);
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('The greeting is friendlier now.')).toBeVisible();
    // The edit's card open, so its result's diff is checked too (its tinted lines in both themes).
    await app.getByRole('log', { name: 'Conversation', exact: true }).getByRole('button', { name: /^edit_file/ }).click();
    await expect(app.getByLabel('Result diff', { exact: true }).locator('[data-diff="add"]')).toBeVisible();
    await everySizeAndScheme(app, 'a chat with a plan', async (where) => {
      await expectFullyInView(app.getByRole('button', { name: 'Send', exact: true }), `${where}: Send`);
    });

    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = app.getByRole('dialog', { name: 'Settings', exact: true });
    await expect(settings).toBeVisible();
    await everySizeAndScheme(app, 'Settings', async (where) => {
      await expectFullyInView(settings.getByRole('button', { name: 'Cancel', exact: true }), `${where}: Cancel`);
    });
    await settings.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(settings).toHaveCount(0);
  });
});

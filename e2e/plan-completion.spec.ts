import { readFileSync } from 'node:fs';
import { plansChecklist } from '../test-support/scenarios/plans-checklist';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { choosePlanningStyle, planPanel, send } from './support/plan-panel';

// Every finished plan leaves a completion card (issue 12, item 7), also when Claude wrote no
// summary - always so in the checklist dialect - with Export plan and Undo plan, after a reload too.
test.describe.configure({ timeout: 90_000 });
test.use({ scenario: plansChecklist });

test('a checklist plan that completes by itself leaves Waypoint\'s card, with Export and Undo, after a reload too', async ({ app }) => {
  await choosePlanningStyle(app, 'checklist');
  await send(app, 'Add a user preferences endpoint');
  const log = app.getByRole('log', { name: 'Conversation', exact: true });
  await expect(log.getByText('The user preferences endpoint is in place')).toBeVisible();
  await expect(planPanel(app).region).toHaveCount(0);

  const card = log.getByRole('region', { name: 'Plan completed', exact: true });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Add user preferences endpoint');
  await expect(card).toContainText('All 6 steps are done: Create preferences model;');
  await expect(card).toContainText('6/6 steps completed');
  await expect(card).toContainText('Summary by Waypoint: Claude did not write one.');
  // The panel is gone; the card keeps the steps, each with how it ended (issue 23 item 13).
  const steps = card.getByRole('list', { name: 'Steps', exact: true }).getByRole('listitem');
  await expect(steps).toHaveCount(6);
  await expect(steps.first()).toHaveText(/^1\. Create preferences model \(completed\)/);
  await expect(steps.last()).toHaveText(/^6\. Write tests \(completed\)/);
  await expect(card.getByRole('button', { name: 'Undo plan', exact: true })).toBeVisible();

  const download = app.waitForEvent('download');
  await card.getByRole('button', { name: 'Export plan', exact: true }).click();
  const markdown = readFileSync((await (await download).path())!, 'utf8');
  expect(markdown).toContain('# Add user preferences endpoint');
  expect(markdown).toContain('- [x] Write tests — completed');
  expect(markdown).not.toContain('# Project:');

  await expectAccessibleInBothSchemes(app, 'completion card by Waypoint');

  await app.reload();
  const again = app.getByRole('log', { name: 'Conversation', exact: true }).getByRole('region', { name: 'Plan completed', exact: true });
  await expect(again).toContainText('All 6 steps are done');
  await expect(again.getByRole('list', { name: 'Steps', exact: true }).getByRole('listitem')).toHaveCount(6);
  await expect(again.getByRole('button', { name: 'Export plan', exact: true })).toBeVisible();
  await expect(again.getByRole('button', { name: 'Undo plan', exact: true })).toBeVisible();
});

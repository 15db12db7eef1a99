import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  UNDO_CREATED,
  UNDO_CREATED_TEXT,
  UNDO_EDITED,
  UNDO_EDITED_AFTER,
  UNDO_EDITED_TEXT,
  UNDO_FILES,
  recoveryUndoPlan,
} from '../test-support/scenarios/recovery-patterns';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/recovery-fixtures';
import { planPanel, send } from './support/plan-panel';

// "Undo plan" (docs/contract.md §3): a plan really edits a file that was there and creates another in
// the shell's workspace; undo restores the first and removes the second, after a confirmation
// that lists both. The scenario stops before step 3, so the plan is paused in its panel. After
// the undo the plan shows as undone (issue 12, item 9): the panel goes, no step stays ticked,
// and a "Plan undone" card says what happened to the files and offers Undo again.
test.describe.configure({ timeout: 90_000 });
test.use({
  scenario: recoveryUndoPlan,
  settingsFile: { autoApproveEdits: true, retryDelayMs: 0 },
  workspaceFiles: UNDO_FILES,
});

/** Runs the plan's first two steps and checks what they did on disk. */
async function runPlan(app: Page, workspace: string) {
  const panel = planPanel(app);
  await send(app, 'Prepare the 1.0 release');
  await expect(app.getByText('Shall I tag the release (step 3)?')).toBeVisible();
  await expect(panel.step('Write the changelog')).toHaveAttribute('data-status', 'completed');
  await expect(panel.step('Tag the release')).toHaveAttribute('data-status', 'pending');
  expect(readFileSync(join(workspace, UNDO_EDITED), 'utf8')).toBe(UNDO_EDITED_AFTER);
  expect(readFileSync(join(workspace, UNDO_CREATED), 'utf8')).toBe(UNDO_CREATED_TEXT);
  return panel;
}

const confirmation = (app: Page) => app.getByRole('group', { name: /Undo the plan.s file changes/ });
const undoneCard = (app: Page) => app.getByRole('log', { name: 'Conversation', exact: true }).getByRole('region', { name: 'Plan undone', exact: true });

test('"Undo plan" lists the files, restores the edited one, removes the created one, and the plan shows as undone', async ({ app, shell }) => {
  const panel = await runPlan(app, shell.workspace);
  await panel.region.getByRole('button', { name: 'Undo plan', exact: true }).click();
  const confirm = confirmation(app);
  await expect(confirm.getByRole('listitem')).toHaveText([`Delete ${UNDO_CREATED}`, `Restore ${UNDO_EDITED}`]);
  await expect(confirm.getByRole('checkbox')).toHaveCount(0); // nothing was changed outside Waypoint
  // Nothing happens before the user confirms; Cancel leaves everything as it is.
  await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(confirm).toHaveCount(0);
  await expect(panel.region.getByRole('button', { name: 'Undo plan', exact: true })).toBeFocused();
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(true);

  await panel.region.getByRole('button', { name: 'Undo plan', exact: true }).click();
  await expect(confirm.getByRole('button', { name: 'Confirm undo', exact: true })).toBeFocused();
  await confirm.getByRole('button', { name: 'Confirm undo', exact: true }).click();
  // Back to how it was before the plan: before step 1, not before step 2's second edit.
  const card = undoneCard(app);
  await expect(card).toContainText(`Undone: restored ${UNDO_EDITED}; removed ${UNDO_CREATED}. No step counts as done any more.`);
  expect(readFileSync(join(shell.workspace, UNDO_EDITED), 'utf8')).toBe(UNDO_EDITED_TEXT);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(false);
  // The plan no longer stands: no panel with ticked steps; keyboard focus lands on the card.
  await expect(panel.region).toHaveCount(0);
  await expect(card.getByRole('heading', { name: 'Plan undone', exact: true })).toBeFocused();
  await expectAccessibleInBothSchemes(app, 'plan undone');

  // Its export says so too: every step pending again, and what the undo did.
  const download = app.waitForEvent('download');
  await card.getByRole('button', { name: 'Export plan', exact: true }).click();
  const markdown = readFileSync((await (await download).path())!, 'utf8');
  expect(markdown).toContain('**Status:** undone');
  expect(markdown).toContain('- [ ] **1. Switch the config to production** — pending');
  expect(markdown).not.toMatch(/^- \[x\]/m);
  expect(markdown).toContain(`restored ${UNDO_EDITED}; removed ${UNDO_CREATED}`);

  // Every file is back: nothing is left to undo, so "Undo plan" is no longer offered.
  await expect(card.getByRole('button', { name: 'Undo plan', exact: true })).toHaveCount(0);
});

test('a file changed outside Waypoint since is flagged and kept unless the user ticks overwrite', async ({ app, shell }) => {
  const panel = await runPlan(app, shell.workspace);
  const edited = join(shell.workspace, UNDO_EDITED);
  const byHand = 'port=443\nmode=production\n# tuned by hand\n';
  writeFileSync(edited, byHand);

  await panel.region.getByRole('button', { name: 'Undo plan', exact: true }).click();
  const confirm = confirmation(app);
  await expect(confirm.getByRole('listitem').filter({ hasText: UNDO_EDITED })).toHaveText(
    `Restore ${UNDO_EDITED} — changed outside Waypoint since`,
  );
  await expect(confirm.getByRole('listitem').filter({ hasText: UNDO_CREATED })).not.toContainText('changed outside');
  await expect(confirm.getByRole('checkbox', { name: 'Also overwrite files changed outside Waypoint', exact: true })).not.toBeChecked();
  await confirm.getByRole('button', { name: 'Confirm undo', exact: true }).click();
  const card = undoneCard(app);
  await expect(card).toContainText(`Undone: removed ${UNDO_CREATED}; left ${UNDO_EDITED} as it is (changed outside Waypoint).`);
  expect(readFileSync(edited, 'utf8')).toBe(byHand);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(false);

  // Asked again from the card, only the hand-edited file is left; ticking the box puts back the original.
  await card.getByRole('button', { name: 'Undo plan', exact: true }).click();
  await expect(confirm.getByRole('listitem')).toHaveText([`Restore ${UNDO_EDITED} — changed outside Waypoint since`]);
  await confirm.getByRole('checkbox', { name: 'Also overwrite files changed outside Waypoint', exact: true }).check();
  await confirm.getByRole('button', { name: 'Confirm undo', exact: true }).click();
  await expect(card.getByRole('status')).toHaveText(`Undo plan: restored ${UNDO_EDITED}.`);
  await expect(card).toContainText(`Undone: restored ${UNDO_EDITED}; removed ${UNDO_CREATED}.`);
  expect(readFileSync(edited, 'utf8')).toBe(UNDO_EDITED_TEXT);
});

test('"Undo plan" still knows the plan\'s files after the page is reloaded, and the undone plan stays undone', async ({ app, shell }) => {
  await runPlan(app, shell.workspace);
  await app.reload();
  const panel = planPanel(app);
  await expect(panel.step('Tag the release')).toHaveAttribute('data-status', 'pending');
  await panel.region.getByRole('button', { name: 'Undo plan', exact: true }).click();
  await expect(confirmation(app).getByRole('listitem')).toHaveText([`Delete ${UNDO_CREATED}`, `Restore ${UNDO_EDITED}`]);
  await confirmation(app).getByRole('button', { name: 'Confirm undo', exact: true }).click();
  await expect(undoneCard(app)).toContainText(`Undone: restored ${UNDO_EDITED}; removed ${UNDO_CREATED}.`);
  expect(readFileSync(join(shell.workspace, UNDO_EDITED), 'utf8')).toBe(UNDO_EDITED_TEXT);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(false);
  await app.reload();
  await expect(undoneCard(app)).toContainText(`Undone: restored ${UNDO_EDITED}; removed ${UNDO_CREATED}.`);
  await expect(planPanel(app).region).toHaveCount(0);
});

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
import { expect, test } from './support/recovery-fixtures';
import { planPanel, send } from './support/plan-panel';

// "Undo plan" (design.md §3): a plan really edits a file that was there and creates another in
// the shell's workspace; undo restores the first and removes the second, after a confirmation
// that lists both. The scenario stops before step 3, so the plan and its panel stay active.
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

const confirmation = (app: Page) => planPanel(app).region.getByRole('group', { name: /Undo the plan.s file changes/ });

test('"Undo plan" lists the files, then restores the edited one and removes the created one', async ({ app, shell }) => {
  const panel = await runPlan(app, shell.workspace);
  await panel.region.getByRole('button', { name: 'Undo plan' }).click();
  const confirm = confirmation(app);
  await expect(confirm.getByRole('listitem')).toHaveText([`Delete ${UNDO_CREATED}`, `Restore ${UNDO_EDITED}`]);
  await expect(confirm.getByRole('checkbox')).toHaveCount(0); // nothing was changed outside Waypoint
  // Nothing happens before the user confirms; Cancel leaves everything as it is.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(panel.region.getByRole('button', { name: 'Undo plan' })).toBeFocused();
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(true);

  await panel.region.getByRole('button', { name: 'Undo plan' }).click();
  await expect(confirm.getByRole('button', { name: 'Confirm undo' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(panel.region.getByRole('status')).toHaveText(`Undo plan: restored ${UNDO_EDITED}; removed ${UNDO_CREATED}.`);
  // Back to how it was before the plan: before step 1, not before step 2's second edit.
  expect(readFileSync(join(shell.workspace, UNDO_EDITED), 'utf8')).toBe(UNDO_EDITED_TEXT);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(false);
  await expect(panel.region.getByRole('button', { name: 'Undo plan' })).toBeFocused();

  // A second undo finds nothing left to change.
  await panel.region.getByRole('button', { name: 'Undo plan' }).click();
  await expect(panel.region.getByRole('status')).toHaveText('Undo plan: this plan has not changed any files.');
  await expect(panel.region.getByRole('button', { name: 'Undo plan' })).toBeFocused();
});

test('a file changed outside Waypoint since is flagged and kept unless the user ticks overwrite', async ({ app, shell }) => {
  const panel = await runPlan(app, shell.workspace);
  const edited = join(shell.workspace, UNDO_EDITED);
  const byHand = 'port=443\nmode=production\n# tuned by hand\n';
  writeFileSync(edited, byHand);

  await panel.region.getByRole('button', { name: 'Undo plan' }).click();
  const confirm = confirmation(app);
  await expect(confirm.getByRole('listitem').filter({ hasText: UNDO_EDITED })).toHaveText(
    `Restore ${UNDO_EDITED} — changed outside Waypoint since`,
  );
  await expect(confirm.getByRole('listitem').filter({ hasText: UNDO_CREATED })).not.toContainText('changed outside');
  const overwrite = confirm.getByRole('checkbox', { name: 'Also overwrite files changed outside Waypoint' });
  await expect(overwrite).not.toBeChecked();
  await confirm.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(panel.region.getByRole('status')).toHaveText(
    `Undo plan: removed ${UNDO_CREATED}; left ${UNDO_EDITED} alone (changed outside Waypoint).`,
  );
  expect(readFileSync(edited, 'utf8')).toBe(byHand);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(false);

  // Asked again, only the hand-edited file is left; ticking the box puts back the original.
  await panel.region.getByRole('button', { name: 'Undo plan' }).click();
  await expect(confirm.getByRole('listitem')).toHaveText([`Restore ${UNDO_EDITED} — changed outside Waypoint since`]);
  await overwrite.check();
  await confirm.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(panel.region.getByRole('status')).toHaveText(`Undo plan: restored ${UNDO_EDITED}.`);
  expect(readFileSync(edited, 'utf8')).toBe(UNDO_EDITED_TEXT);
});

test('"Undo plan" still knows the plan\'s files after the page is reloaded', async ({ app, shell }) => {
  await runPlan(app, shell.workspace);
  await app.reload();
  const panel = planPanel(app);
  await expect(panel.step('Tag the release')).toHaveAttribute('data-status', 'pending');
  await panel.region.getByRole('button', { name: 'Undo plan' }).click();
  await expect(confirmation(app).getByRole('listitem')).toHaveText([`Delete ${UNDO_CREATED}`, `Restore ${UNDO_EDITED}`]);
  await confirmation(app).getByRole('button', { name: 'Confirm undo' }).click();
  await expect(panel.region.getByRole('status')).toHaveText(`Undo plan: restored ${UNDO_EDITED}; removed ${UNDO_CREATED}.`);
  expect(readFileSync(join(shell.workspace, UNDO_EDITED), 'utf8')).toBe(UNDO_EDITED_TEXT);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(false);
});

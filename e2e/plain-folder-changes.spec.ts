import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { PLAIN_GONE, PLAIN_GONE_TEXT, PLAIN_KEPT, PLAIN_KEPT_TEXT, PLAIN_MADE, plainFolderCommand } from '../test-support/scenarios/worktree';
import { expect, test } from './support/recovery-fixtures';
import { send } from './support/plan-panel';

// "Changes" of a chat in a plain folder (no worktree; docs/contract.md §11) in Chromium against the
// web shell: a real command run by the scripted Claude creates, changes and deletes files, and
// Changes lists all three with their lines, shows a diff and reverts a file to what it was.
test.describe.configure({ timeout: 90_000 });
test.use({
  scenario: plainFolderCommand,
  settingsFile: { autoApproveCommands: true, retryDelayMs: 0 },
  workspaceFiles: { [PLAIN_KEPT]: PLAIN_KEPT_TEXT, [PLAIN_GONE]: PLAIN_GONE_TEXT },
});

const changes = (app: Page) => app.getByRole('region', { name: 'Changes', exact: true });
const fileItem = (app: Page, path: string) => changes(app).getByRole('listitem').filter({ hasText: path });

test('files a command created, changed and deleted are listed with their lines; Show diff; Revert file puts them back', async ({ app, shell }) => {
  await send(app, 'Tidy up');
  await expect(app.getByText('Done.')).toBeVisible();
  expect(existsSync(join(shell.workspace, PLAIN_GONE))).toBe(false);

  await app.getByRole('button', { name: 'Changes', exact: true }).click();
  await expect(changes(app).getByRole('listitem')).toHaveCount(3);
  await expect(fileItem(app, PLAIN_KEPT)).toContainText('changed');
  await expect(fileItem(app, PLAIN_KEPT)).toContainText('+1 −0');
  await expect(fileItem(app, PLAIN_GONE)).toContainText('deleted');
  await expect(fileItem(app, PLAIN_GONE)).toContainText('+0 −2');
  await expect(fileItem(app, PLAIN_MADE)).toContainText('created');
  await expect(fileItem(app, PLAIN_MADE)).toContainText('+2 −0');

  await fileItem(app, PLAIN_KEPT).getByRole('button', { name: 'Show diff', exact: true }).click();
  await expect(fileItem(app, PLAIN_KEPT).getByLabel(`Diff of ${PLAIN_KEPT}`)).toContainText('+three');

  await fileItem(app, PLAIN_KEPT).getByRole('button', { name: 'Revert file', exact: true }).click();
  await expect(changes(app).getByRole('status')).toHaveText(`${PLAIN_KEPT} reverted.`);
  await expect(changes(app).getByRole('listitem')).toHaveCount(2);
  expect(readFileSync(join(shell.workspace, PLAIN_KEPT), 'utf8')).toBe(PLAIN_KEPT_TEXT);

  await fileItem(app, PLAIN_GONE).getByRole('button', { name: 'Revert file', exact: true }).click();
  await expect(changes(app).getByRole('listitem')).toHaveCount(1);
  expect(readFileSync(join(shell.workspace, PLAIN_GONE), 'utf8')).toBe(PLAIN_GONE_TEXT);

  await fileItem(app, PLAIN_MADE).getByRole('button', { name: 'Revert file', exact: true }).click();
  await expect(changes(app).getByText('This chat has changed no files.')).toBeVisible();
  expect(existsSync(join(shell.workspace, PLAIN_MADE))).toBe(false);
});

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { BY_COMMAND, WORKTREE_NOTES, WORKTREE_NOTES_TEXT, WORKTREE_NOTES_WRITTEN, worktreeChat } from '../test-support/scenarios/worktree';
import { expect, test } from './support/recovery-fixtures';
import { send } from './support/plan-panel';

// Settings "Work in a git worktree" (docs/contract.md §11) in Chromium against the web shell and
// real git: the chat works in its own worktree, the header names its branch, and "Changes" shows
// what it changed (a file written by a tool, one made by a command) with Show diff, Revert file,
// Merge into main, Discard worktree; deleting the chat removes its worktree and branch.
test.describe.configure({ timeout: 90_000 });
test.use({
  scenario: worktreeChat,
  settingsFile: { worktrees: true, autoApproveEdits: true, autoApproveCommands: true, retryDelayMs: 0 },
  workspaceFiles: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT },
});

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });

function repoIn(folder: string): void {
  git(folder, 'init', '--quiet', '--initial-branch=main');
  git(folder, 'add', '.');
  git(folder, 'commit', '--quiet', '-m', 'first');
}

async function chatInWorktree(app: Page, workspace: string): Promise<void> {
  repoIn(workspace);
  await send(app, 'Write the notes');
  await expect(app.getByText('Done.')).toBeVisible();
  await expect(app.locator('header').getByText(/^Branch: waypoint\/[0-9a-f]{8}$/)).toBeVisible();
}

const changes = (app: Page) => app.getByRole('region', { name: 'Changes', exact: true });
const fileItem = (app: Page, path: string) => changes(app).getByRole('listitem').filter({ hasText: path });

test('Changes lists the files, shows a diff, reverts a file and merges into main', async ({ app, shell }) => {
  await chatInWorktree(app, shell.workspace);
  // The user's checkout is untouched until the merge.
  expect(readFileSync(join(shell.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_TEXT);

  await app.getByRole('button', { name: 'Changes', exact: true }).click();
  await expect(changes(app).getByRole('listitem')).toHaveCount(2);
  await expect(fileItem(app, WORKTREE_NOTES)).toContainText('+2 −0');
  await expect(fileItem(app, BY_COMMAND)).toContainText('created');

  await fileItem(app, WORKTREE_NOTES).getByRole('button', { name: 'Show diff', exact: true }).click();
  await expect(fileItem(app, WORKTREE_NOTES).getByLabel(`Diff of ${WORKTREE_NOTES}`)).toContainText('Written in the worktree.');

  await fileItem(app, BY_COMMAND).getByRole('button', { name: 'Revert file', exact: true }).click();
  await expect(changes(app).getByRole('listitem')).toHaveCount(1);
  await expect(changes(app).getByRole('status')).toHaveText(`${BY_COMMAND} reverted.`);

  await changes(app).getByRole('button', { name: 'Merge into main', exact: true }).click();
  await expect(changes(app).getByRole('status')).toContainText('Merged into main');
  expect(readFileSync(join(shell.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
  expect(existsSync(join(shell.workspace, BY_COMMAND))).toBe(false);
});

test('Discard worktree asks first; deleting a chat removes its worktree and branch', async ({ app, shell }) => {
  await chatInWorktree(app, shell.workspace);
  await app.getByRole('button', { name: 'Changes', exact: true }).click();
  await changes(app).getByRole('button', { name: 'Discard worktree', exact: true }).click();
  const confirm = changes(app).getByRole('group', { name: 'Confirm discard', exact: true });
  await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
  expect(readdirSync(join(shell.dataDir, 'worktrees'))).toHaveLength(1);
  await changes(app).getByRole('button', { name: 'Discard worktree', exact: true }).click();
  await confirm.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(changes(app).getByRole('status')).toContainText(`Worktree discarded: this chat now works in ${shell.workspace}`);
  await expect(app.locator('header').getByText(/^Branch: /)).toHaveCount(0);
  expect(readdirSync(join(shell.dataDir, 'worktrees'))).toHaveLength(0);
  expect(git(shell.workspace, 'branch', '--list', 'waypoint/*')).toBe('');

  // A second chat in its own worktree, deleted: its worktree and branch go with it.
  await app.getByRole('button', { name: 'New chat', exact: true }).click();
  await send(app, 'Write them again');
  await expect(app.locator('header').getByText(/^Branch: waypoint\//)).toBeVisible();
  // The header names the branch as soon as the chat has one; the checkout runs on behind the first
  // request (this echoed reply calls no tool that would wait for it), so its folder comes a moment later.
  await expect.poll(() => readdirSync(join(shell.dataDir, 'worktrees')).length, { timeout: 30_000 }).toBe(1);
  const chats = app.getByRole('navigation', { name: 'Chats', exact: true });
  await chats.getByRole('listitem').filter({ hasText: 'Write them again' }).getByRole('button', { name: 'Delete chat', exact: true }).click();
  const dialog = app.getByRole('alertdialog', { name: 'Delete chat?', exact: true });
  await expect(dialog.getByRole('checkbox', { name: /^Keep branch waypoint\// })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  // The chat leaves the list as soon as it is deleted; its worktree and then its branch go right after.
  await expect(chats.getByRole('listitem').filter({ hasText: 'Write them again' })).toHaveCount(0);
  await expect.poll(() => `${readdirSync(join(shell.dataDir, 'worktrees')).length} ${git(shell.workspace, 'branch', '--list', 'waypoint/*')}`).toBe('0 ');
});

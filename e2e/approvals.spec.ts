import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { APP_JS, toolsEdit, toolsTask } from '../test-support/scenarios/tools-workspace';
import { expect, test } from './support/fixtures';
import { send } from './support/plan-panel';

// Scripted Claude works on real files in the web shell's temporary workspace; every risky
// call waits for the approval alertdialog (docs/contract.md §5), and the disk is checked with fs.

const approval = (page: Page) => page.getByRole('alertdialog', { name: /Approve/ });
const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation', exact: true });
const toolCard = (page: Page, name: string) => conversation(page).getByRole('button', { name: new RegExp(`^${name}`) });

function seedWorkspace(workspace: string): string {
  mkdirSync(join(workspace, 'src'), { recursive: true });
  const file = join(workspace, 'src', 'app.js');
  writeFileSync(file, APP_JS);
  return file;
}

test.describe('approving an edit', () => {
  test.use({ scenario: toolsEdit });

  test('the card shows the diff, survives a reload, and Approve writes the file', async ({ app, shell }) => {
    const file = seedWorkspace(shell.workspace);
    await send(app, 'Fix the answer in src/app.js');

    const card = approval(app);
    await expect(card).toBeVisible();
    await expect(card).toBeFocused();
    await expect(card).toHaveAccessibleName(/Approve this file change\? Edit src\/app\.js/);
    await expect(card).toContainText('edit_file');
    await expect(card.locator('[data-diff="del"]')).toHaveText('Removed: -const answer = 41;');
    await expect(card.locator('[data-diff="add"]')).toHaveText('Added: +const answer = 42;');
    await expect(toolCard(app, 'edit_file')).toContainText('awaiting approval');
    expect(readFileSync(file, 'utf8')).toBe(APP_JS);

    // The pending question lives in main: a reloaded page asks again, and the answer still counts.
    await app.reload();
    await expect(approval(app)).toBeVisible();
    await expect(approval(app).locator('[data-diff="add"]')).toHaveText('Added: +const answer = 42;');
    await approval(app).getByRole('button', { name: 'Approve', exact: true }).click();

    await expect(approval(app)).toHaveCount(0);
    await expect(conversation(app).getByText('Done: the answer is 42 now.')).toBeVisible();
    expect(readFileSync(file, 'utf8')).toBe(APP_JS.replace('41', '42'));
    await expect(toolCard(app, 'edit_file')).toContainText('done');
    // The result's diff is marked as the card's was: in words for a screen reader, tinted for the eye.
    await toolCard(app, 'edit_file').click();
    const resultDiff = conversation(app).getByLabel('Result diff', { exact: true });
    await expect(resultDiff.locator('[data-diff="del"]')).toHaveText('Removed: -const answer = 41;');
    await expect(resultDiff.locator('[data-diff="add"]')).toHaveText('Added: +const answer = 42;');
    const tint = (kind: string) => resultDiff.locator(`[data-diff="${kind}"]`).first().evaluate((line) => getComputedStyle(line).backgroundColor);
    expect(await tint('add')).not.toBe(await tint('ctx'));
    expect(await tint('del')).not.toBe(await tint('add'));
  });

  test('Deny leaves the file untouched and the card says denied', async ({ app, shell, scripted }) => {
    const file = seedWorkspace(shell.workspace);
    await send(app, 'Fix the answer in src/app.js');
    await approval(app).getByRole('button', { name: 'Deny', exact: true }).click();

    await expect(approval(app)).toHaveCount(0);
    await expect(conversation(app).getByText('Done: the answer is 42 now.')).toBeVisible();
    expect(readFileSync(file, 'utf8')).toBe(APP_JS);
    const card = toolCard(app, 'edit_file');
    await expect(card).toContainText('denied');
    await card.click();
    await expect(conversation(app).getByText(/The user denied this edit_file call/)).toBeVisible();
    // Claude got the denial as an is_error tool_result.
    const body = JSON.stringify(scripted.requests[1]!.body);
    expect(body).toContain('"is_error":true');
    expect(body).toContain("The user denied this edit_file call. Don't retry it unchanged");
  });
});

test.describe('a multi-step task in the workspace', () => {
  test.use({ scenario: toolsTask });

  test('reads, edits, runs and writes with an approval for each risky step', async ({ app, shell }) => {
    const file = seedWorkspace(shell.workspace);
    await send(app, 'Make the program print 42 and note it down');

    // read_file needs no approval; the edit does (answered with the keyboard).
    await expect(approval(app)).toHaveAccessibleName(/Edit src\/app\.js/);
    await expect(toolCard(app, 'read_file')).toContainText('done');
    await expect(approval(app)).toBeFocused();
    await app.keyboard.press('Tab');
    await expect(approval(app).getByRole('button', { name: 'Approve', exact: true })).toBeFocused();
    await app.keyboard.press('Enter');

    // The command shows its command line and folder.
    const command = approval(app);
    await expect(command).toHaveAccessibleName(/Approve this command\? Run `node src\/app\.js`/);
    await expect(command).toContainText('Would run: node src/app.js');
    await expect(command).toContainText('in the workspace root');
    await command.getByRole('button', { name: 'Approve', exact: true }).click();

    await expect(approval(app)).toHaveAccessibleName(/Write NOTES\.md/);
    await expect(approval(app)).toContainText('Would create NOTES.md');
    await approval(app).getByRole('button', { name: 'Approve', exact: true }).click();

    await expect(conversation(app).getByText('All set: the program prints 42 and NOTES.md records it.')).toBeVisible();
    await expect(approval(app)).toHaveCount(0);
    expect(readFileSync(file, 'utf8')).toContain('const answer = 42;');
    expect(existsSync(join(shell.workspace, 'NOTES.md'))).toBe(true);
    const run = toolCard(app, 'run_command');
    await expect(run).toContainText('done');
    await run.click();
    await expect(conversation(app).getByText(/answer is 42/)).toBeVisible();
    await expect(conversation(app).getByText(/exit code 0/)).toBeVisible();
  });
});

import type { Page } from '@playwright/test';
import { startScriptedServer } from '../test-support/scripted-api/server';
import type { Scenario, ScriptedTurn } from '../test-support/scripted-api/scenario';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { openNewChat, send } from './support/plan-panel';

// Issue 24: dialog "Needs you" answers every waiting chat in place, with the chat's own buttons
// (docs/contract.md §8). Real web shell, real SDK against the scripted Messages API; each chat's
// reply comes from the next scripted turn, so the answers are given one at a time.
test.describe.configure({ timeout: 120_000 });

const APP = 'const answer = 41;\n';
const EDIT: ScriptedTurn = { kind: 'tool_use', text: "I'll fix the answer.", calls: [{ name: 'edit_file', input: { path: 'app.js', old_text: 'const answer = 41;', new_text: 'const answer = 42;' } }] };

const row = (page: Page, title: string) => page.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('listitem').filter({ hasText: title });
const inbox = (page: Page) => page.getByRole('dialog', { name: 'Needs you', exact: true });
const item = (page: Page, title: string) => inbox(page).getByRole('listitem', { name: title, exact: true });
const needsYou = (page: Page, n: number) => page.getByRole('button', { name: `Needs you (${n})`, exact: true });

test('three chats wait (a plan proposal, an approval, Claude\'s question); each is answered from the dialog and its run goes on', async ({ page }) => {
  const scenario: Scenario = {
    name: 'needs-you-three',
    onExhausted: 'echo',
    turns: [
      // "Plan the release" (plan first): the proposal, and the turn ends.
      { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'Ship the release', steps: [{ step_number: 1, description: 'Bump the version' }] } }] },
      { kind: 'text', text: 'Approve the plan, or tell me what to change.' },
      // "Fix the answer": the edit asks for approval.
      EDIT,
      // "Pick a database": Claude's question.
      { kind: 'tool_use', calls: [{ name: 'ask_user', id: 'toolu_ask', input: { question: 'Which database?', options: ['PostgreSQL', 'SQLite'], allow_text: true } }] },
      // The answers, in the order the test gives them.
      { kind: 'text', text: 'Done: the answer is 42 now.' },
      { kind: 'text', text: 'Thanks, SQLite it is.' },
      { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }, { name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'bumped' } }] },
      { kind: 'text', text: 'Plan done: the version is bumped.' },
    ],
  };
  const scripted = await startScriptedServer({ scenario });
  // No goal check after the plan completes (issue 25): each request here is one the script answers.
  const shell = await startPersistentShell(scripted.url, { settings: { planFirst: true, goalChecks: 0 }, files: { 'app.js': APP } });
  try {
    await page.goto(shell.current.url);
    await send(page, 'Plan the release');
    await expect(row(page, 'Plan the release')).toHaveAttribute('data-run', 'needs-you');
    await expect.poll(() => scripted.requests.length).toBe(2);
    // Plan first off again, for the chats after it.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'Settings', exact: true });
    await settings.getByRole('checkbox', { name: 'Plan first', exact: true }).uncheck();
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(settings).toHaveCount(0);

    await openNewChat(page);
    await send(page, 'Fix the answer');
    await expect(row(page, 'Fix the answer')).toHaveAttribute('data-run', 'needs-you');
    await openNewChat(page);
    await send(page, 'Pick a database');
    await expect(row(page, 'Pick a database')).toHaveAttribute('data-run', 'needs-you');
    await openNewChat(page);
    expect(scripted.requests).toHaveLength(4);

    await needsYou(page, 3).click();
    await expect(item(page, 'Fix the answer')).toContainText('Approve: Edit app.js');
    for (const name of ['Approve', 'Approve for this chat', 'Always approve', 'Deny', 'Open chat']) await expect(item(page, 'Fix the answer').getByRole('button', { name, exact: true })).toBeVisible();
    for (const name of ['PostgreSQL', 'SQLite', 'Send answer']) await expect(item(page, 'Pick a database').getByRole('button', { name, exact: true })).toBeVisible();
    await expect(item(page, 'Pick a database').getByRole('textbox', { name: 'Your answer', exact: true })).toBeVisible();
    await expect(item(page, 'Plan the release')).toContainText('Bump the version');
    await expect(item(page, 'Plan the release').getByRole('button', { name: 'Approve plan', exact: true })).toBeEnabled();
    await expectAccessibleInBothSchemes(page, 'the Needs you dialog with three prompts');

    // The approval: the item leaves, the count drops, the run goes on out of view.
    await item(page, 'Fix the answer').getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(item(page, 'Fix the answer')).toHaveCount(0);
    await expect(needsYou(page, 2)).toBeVisible();
    await expect(row(page, 'Fix the answer')).toHaveAttribute('data-run', 'idle');
    // The focus stayed in the dialog.
    expect(await inbox(page).evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);

    await item(page, 'Pick a database').getByRole('button', { name: 'SQLite', exact: true }).click();
    await expect(item(page, 'Pick a database')).toHaveCount(0);
    await expect(needsYou(page, 1)).toBeVisible();
    await expect(row(page, 'Pick a database')).toHaveAttribute('data-run', 'idle');

    await item(page, 'Plan the release').getByRole('button', { name: 'Approve plan', exact: true }).click();
    await expect(needsYou(page, 0)).toBeVisible();
    await expect(inbox(page)).toContainText('No chat is waiting for you.');
    await expect(row(page, 'Plan the release')).toHaveAttribute('data-run', 'idle');
    expect(await inbox(page).evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(inbox(page)).toHaveCount(0);
    // The chat in view never changed.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');

    // Each chat's run went on: its reply is there when it is opened.
    const conversation = page.getByRole('log', { name: 'Conversation', exact: true });
    await row(page, 'Fix the answer').getByRole('button', { name: /Fix the answer/ }).click();
    await expect(conversation.getByText('Done: the answer is 42 now.')).toBeVisible();
    await row(page, 'Pick a database').getByRole('button', { name: /Pick a database/ }).click();
    await expect(conversation.getByText('Thanks, SQLite it is.')).toBeVisible();
    await row(page, 'Plan the release').getByRole('button', { name: /Plan the release/ }).click();
    await expect(conversation.getByText('Plan done: the version is bumped.')).toBeVisible();
    expect(scripted.requests).toHaveLength(8);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test('two windows answer the same approval from their dialogs: the second is told "already answered" and nothing runs twice', async ({ page, context }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'needs-you-two-windows', onExhausted: 'echo', turns: [EDIT, { kind: 'text', text: 'Done: the answer is 42 now.' }] } });
  const shell = await startPersistentShell(scripted.url, { files: { 'app.js': APP } });
  try {
    await page.goto(shell.current.url);
    await send(page, 'Fix the answer');
    await expect(row(page, 'Fix the answer')).toHaveAttribute('data-run', 'needs-you');
    await openNewChat(page);

    // The second window is slow to hear of the answer: the approval's resolution and the run's
    // states are held back on the way, so it still offers "Approve" when the person clicks there.
    const other = await context.newPage();
    await other.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        if (typeof message === 'string' && /"approval_resolved"|"run_state"/.test(message)) return;
        ws.send(message);
      });
    });
    await other.goto(shell.current.url);
    await needsYou(other, 1).click();
    await expect(item(other, 'Fix the answer').getByRole('button', { name: 'Approve', exact: true })).toBeVisible();

    await needsYou(page, 1).click();
    await item(page, 'Fix the answer').getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(needsYou(page, 0)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect.poll(() => scripted.requests.length).toBe(2);

    await item(other, 'Fix the answer').getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(inbox(other).getByRole('alert')).toHaveText('That approval was already answered (in another window?) or cancelled: nothing changed.');
    await expect(item(other, 'Fix the answer').getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
    await expectAccessibleInBothSchemes(other, 'the Needs you dialog saying "already answered"');
    // One follow-up request only: the second answer ran nothing.
    await row(page, 'Fix the answer').getByRole('button', { name: /Fix the answer/ }).click();
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('Done: the answer is 42 now.')).toBeVisible();
    expect(scripted.requests).toHaveLength(2);
    await other.close();
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test('after a restart the dialog still answers each waiting chat; one deleted in another window meanwhile leaves it', async ({ page, context }) => {
  const scenario: Scenario = {
    name: 'needs-you-restart',
    onExhausted: 'echo',
    turns: [
      EDIT,
      { kind: 'tool_use', calls: [{ name: 'ask_user', id: 'toolu_ask', input: { question: 'Which database?', options: ['PostgreSQL', 'SQLite'], allow_text: false } }] },
      { kind: 'text', text: 'Done: the answer is 42 now.' },
    ],
  };
  const scripted = await startScriptedServer({ scenario });
  const shell = await startPersistentShell(scripted.url, { files: { 'app.js': APP } });
  try {
    await page.goto(shell.current.url);
    await send(page, 'Fix the answer');
    await expect(row(page, 'Fix the answer')).toHaveAttribute('data-run', 'needs-you');
    await openNewChat(page);
    await send(page, 'Pick a database');
    await expect(row(page, 'Pick a database')).toHaveAttribute('data-run', 'needs-you');
    await openNewChat(page);

    // A restart: what each chat asks comes back from its log, not from anything the page held.
    const next = await shell.restart('quit');
    await page.goto(next.url);
    await needsYou(page, 2).click();
    await expect(item(page, 'Fix the answer').getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
    await expect(item(page, 'Pick a database').getByRole('button', { name: 'SQLite', exact: true })).toBeVisible();

    // Another window deletes the chat with the question while it waits.
    const other = await context.newPage();
    await other.goto(next.url);
    await row(other, 'Pick a database').getByRole('button', { name: 'Delete chat', exact: true }).click();
    await other.getByRole('alertdialog', { name: 'Delete chat?', exact: true }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(row(other, 'Pick a database')).toHaveCount(0);
    await expect(item(page, 'Pick a database')).toHaveCount(0);
    await expect(needsYou(page, 1)).toBeVisible();
    await other.close();

    await item(page, 'Fix the answer').getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(needsYou(page, 0)).toBeVisible();
    await page.keyboard.press('Escape');
    await row(page, 'Fix the answer').getByRole('button', { name: /Fix the answer/ }).click();
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('Done: the answer is 42 now.')).toBeVisible();
    // Two asks before the restart, the approved chat's one after; the deleted chat never went on.
    expect(scripted.requests).toHaveLength(3);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

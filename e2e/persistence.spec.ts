import { plansStructured } from '../test-support/scenarios/plans-structured';
import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationSkip } from '../test-support/scenarios/recovery-escalation';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { expectProgress, planPanel, openNewChat, send } from './support/plan-panel';

// Each test runs its own scripted Claude and a web shell it kills and starts again on the same
// data folder: what comes back is only what the session logs kept.

test('a chat killed mid-plan comes back after a restart, and Resume carries on', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { ...plansStructured, gated: true } });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    await send(page, 'Create a structural grid with 3 gridlines each way');
    await scripted.release(); // create_plan
    await scripted.release(); // start step 1
    await scripted.release(); // complete step 1
    await expectProgress(page, 1, 3);
    // The run now waits for Claude's next turn: kill the app right there.
    await expect.poll(() => scripted.requests.length).toBe(4);

    const next = await shell.restart('kill');
    // The scripted server still holds the dead process's request: let it go, and script the rest.
    await scripted.release();
    scripted.setScenario({ ...plansStructured, gated: true, turns: plansStructured.turns.slice(3) });
    await page.goto(next.url);
    const chats = page.getByRole('navigation', { name: 'Chats', exact: true });
    await expect(chats.getByRole('button', { name: /Create a structural grid/ })).toBeVisible();
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('Create a structural grid with 3 gridlines each way')).toBeVisible();
    await expectProgress(page, 1, 3);
    const panel = planPanel(page);
    await expect(panel.step('Create vertical grid lines A, B, C')).toHaveAttribute('data-status', 'completed');
    await expect(panel.step('Create horizontal grid lines 1, 2, 3')).toHaveAttribute('data-status', 'pending');
    // The running cost came back too.
    await expect(page.locator('header')).toContainText(/\$\d+\.\d\d|<\$0\.01/);

    // Interrupted: Resume continues from the last consistent point (the step-1 result).
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await expect.poll(() => scripted.requests.length).toBe(5);
    const resent = JSON.stringify(scripted.requests[4]!.body);
    // No orphan tool_use and no repeated text: the last message is the step-1 result.
    expect((scripted.requests[4]!.body as { messages: unknown[] }).messages).toHaveLength((scripted.requests[3]!.body as { messages: unknown[] }).messages.length);
    expect(resent).toContain('complete_step');
    await scripted.release(); // the fourth turn: start step 2
    await expect(panel.step('Create horizontal grid lines 1, 2, 3')).toHaveAttribute('data-status', 'in_progress');
    await expect(page.getByRole('button', { name: 'Resume', exact: true })).toHaveCount(0);
  } finally {
    void scripted.release(100);
    await shell.dispose();
    await scripted.close();
  }
});

test('chats are renamed, searched and deleted (with confirmation), and it all survives a restart', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await send(page, 'Alpha: notes about the quarterly budget');
    await expect(log.getByText('You said: Alpha: notes about the quarterly budget')).toBeVisible();
    await openNewChat(page);
    await send(page, 'Beta: a recipe for bread');
    await expect(log.getByText('You said: Beta: a recipe for bread')).toBeVisible();

    const chats = page.getByRole('navigation', { name: 'Chats', exact: true });
    const item = (title: RegExp) => chats.getByRole('listitem').filter({ hasText: title });

    // Search finds text inside messages, with a snippet.
    await chats.getByRole('searchbox', { name: 'Search chats', exact: true }).fill('quarterly');
    const results = chats.getByRole('list', { name: 'Search results', exact: true });
    await expect(results.getByRole('button')).toHaveCount(1);
    await expect(results.getByRole('button')).toContainText('Alpha: notes about the quarterly budget');
    await chats.getByRole('searchbox', { name: 'Search chats', exact: true }).fill('');
    await expect(results).toHaveCount(0);

    // Rename inline.
    await item(/Beta: a recipe/).getByRole('button', { name: 'Rename chat', exact: true }).click();
    const titleBox = chats.getByRole('textbox', { name: 'Chat title', exact: true });
    await titleBox.fill('Bread');
    await titleBox.press('Enter');
    await expect(chats.getByRole('button', { name: 'Bread', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bread');

    // Delete asks first; Cancel keeps the chat, Delete removes it.
    await item(/Alpha/).getByRole('button', { name: 'Delete chat', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete chat?', exact: true });
    await expect(dialog).toContainText('Alpha: notes about the quarterly budget');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(item(/Alpha/)).toHaveCount(1);
    await item(/Alpha/).getByRole('button', { name: 'Delete chat', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Delete chat?', exact: true }).getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(item(/Alpha/)).toHaveCount(0);

    const next = await shell.restart('quit');
    await page.goto(next.url);
    await expect(chats.getByRole('listitem')).toHaveCount(1);
    await expect(chats.getByRole('button', { name: 'Bread', exact: true })).toBeVisible();
    await expect(log.getByText('You said: Beta: a recipe for bread')).toBeVisible();
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test('an escalation pending when the app was killed is asked again after the restart, and Skip carries on', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: recoveryEscalationSkip });
  const shell = await startPersistentShell(scripted.url, {
    settings: { autoApproveEdits: true, retryDelayMs: 0, maxRetries: 2 },
    files: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
  });
  try {
    await page.goto(shell.current.url);
    await send(page, 'Tidy notes.txt');
    const dialog = page.getByRole('alertdialog', { name: /needs your attention/ });
    await expect(dialog).toBeVisible();
    expect(scripted.requests).toHaveLength(5);

    const next = await shell.restart('kill');
    await page.goto(next.url);
    const panel = planPanel(page);
    await expect(panel.step('Fix the greeting typo')).toHaveAttribute('data-status', 'in_progress');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('old_text was not found in notes.txt');
    await dialog.getByRole('button', { name: 'Skip step', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('Step 1 was skipped as you asked; step 2 is done.')).toBeVisible();
    // The held edit_file call got its answer; nothing was asked twice.
    const resumed = JSON.stringify(scripted.requests[5]!.body);
    expect(resumed).toContain('skip');
    // Nine requests of the run, then the completed plan's goal check (one extra independent
    // request that forces report_goal_check, Settings "Goal checks" default 1): it is that check,
    // not a question asked twice, and none of the run's nine forced it.
    await expect.poll(() => scripted.requests.length).toBe(10);
    const toolChoice = (i: number) => (scripted.requests[i]!.body as { tool_choice?: { name?: string } }).tool_choice?.name;
    expect(toolChoice(9)).toBe('report_goal_check');
    expect(scripted.requests.slice(0, 9).map((_, i) => toolChoice(i))).toEqual(Array(9).fill(undefined));
    await page.waitForTimeout(300);
    expect(scripted.requests).toHaveLength(10); // and nothing after it
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

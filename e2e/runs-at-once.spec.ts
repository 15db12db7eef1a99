import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { openNewChat, send } from './support/plan-panel';

// Issue 24: several chats at once, with Settings "Runs at once" = 2 and a gated scripted Claude
// (each reply waits until the test lets it go), driven as a person would, by role and name.

const row = (page: Page, title: string) => page.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('listitem').filter({ hasText: title });

test('two chats work at once, a third is "Queued" and starts when one ends; Stop unqueues; leaving a chat never stops it', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [], gated: true } });
  const shell = await startPersistentShell(scripted.url, { settings: { runsAtOnce: 2 } });
  try {
    await page.goto(shell.current.url);
    await send(page, 'Alpha task');
    await expect(row(page, 'Alpha task')).toHaveAttribute('data-run', 'working');
    await expect(row(page, 'Alpha task')).toContainText('Working');
    await openNewChat(page);
    await send(page, 'Beta task');
    await expect(row(page, 'Beta task')).toHaveAttribute('data-run', 'working');
    // Leaving Alpha did not stop it.
    await expect(row(page, 'Alpha task')).toHaveAttribute('data-run', 'working');

    await openNewChat(page);
    await send(page, 'Gamma task');
    await expect(row(page, 'Gamma task')).toHaveAttribute('data-run', 'queued');
    await expect(row(page, 'Gamma task')).toContainText('Queued');
    await openNewChat(page);
    await send(page, 'Delta task');
    await expect(row(page, 'Delta task')).toHaveAttribute('data-run', 'queued');
    await expectAccessibleInBothSchemes(page, 'two chats working, two queued');
    // Nobody is asked anything: the header says so, and its dialog too.
    await page.getByRole('button', { name: 'Needs you (0)', exact: true }).click();
    const inbox = page.getByRole('dialog', { name: 'Needs you', exact: true });
    await expect(inbox).toContainText('No chat is waiting for you.');
    await expectAccessibleInBothSchemes(page, 'the Needs you dialog');
    await inbox.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(inbox).toHaveCount(0);

    // Stop on a queued chat takes it off the queue; its message stays, unsent.
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(row(page, 'Delta task')).toHaveAttribute('data-run', 'idle');
    await expect(row(page, 'Delta task')).not.toContainText('Queued');
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('Delta task')).toBeVisible();
    await expect(page.getByRole('log', { name: 'Conversation', exact: true })).toContainText('Taken off the queue: your message was not sent.');

    // Alpha's reply ends its run: Gamma takes the slot.
    await scripted.release();
    await expect(row(page, 'Alpha task')).toHaveAttribute('data-run', 'idle');
    await expect(row(page, 'Gamma task')).toHaveAttribute('data-run', 'working');
    await scripted.release(2);
    await expect(row(page, 'Beta task')).toHaveAttribute('data-run', 'idle');
    await expect(row(page, 'Gamma task')).toHaveAttribute('data-run', 'idle');
    await row(page, 'Alpha task').getByRole('button', { name: /Alpha task/ }).click();
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('You said: Alpha task')).toBeVisible();
    // Delta never asked Claude.
    expect(scripted.requests.map((r) => JSON.stringify(r.body)).filter((b) => b.includes('Delta task'))).toEqual([]);
  } finally {
    void scripted.release(100);
    await shell.dispose();
    await scripted.close();
  }
});

test('a queued chat is still queued after a restart, and after a reload the sidebar shows chats working', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [], gated: true } });
  const shell = await startPersistentShell(scripted.url, { settings: { runsAtOnce: 1 } });
  try {
    await page.goto(shell.current.url);
    await send(page, 'First chat');
    await expect(row(page, 'First chat')).toHaveAttribute('data-run', 'working');
    await openNewChat(page);
    await send(page, 'Second chat');
    // Its row has its title before New chat is looked for: until then the row is named "New chat" too.
    await expect(row(page, 'Second chat')).toHaveAttribute('data-run', 'queued');
    await openNewChat(page);
    await send(page, 'Third chat');
    await expect(row(page, 'Third chat')).toHaveAttribute('data-run', 'queued');

    // A reload: the list alone says who works and who waits.
    await page.reload();
    await expect(row(page, 'First chat')).toHaveAttribute('data-run', 'working');
    await expect(row(page, 'Third chat')).toHaveAttribute('data-run', 'queued');

    const next = await shell.restart('quit');
    await page.goto(next.url);
    // The first chat's run ended with the app; the second (sent first) takes the slot, the third still waits.
    await expect(row(page, 'Second chat')).toHaveAttribute('data-run', 'working');
    await expect(row(page, 'Third chat')).toHaveAttribute('data-run', 'queued');
    await expect(row(page, 'Third chat')).toContainText('Queued');
  } finally {
    void scripted.release(100);
    await shell.dispose();
    await scripted.close();
  }
});

test.describe('the "Runs at once" field', () => {
  test.use({ scenario: { name: 'echo', turns: [], gated: true } });

  test('refuses 0 and 17 in words and saves nothing; 1, saved, makes a second chat wait in the queue', async ({ app, shell, scripted }) => {
    const settingsFile = join(shell.dataDir, 'settings.json');
    const savedRuns = () => (existsSync(settingsFile) ? (JSON.parse(readFileSync(settingsFile, 'utf8')) as { runsAtOnce?: number }).runsAtOnce : undefined);
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Settings', exact: true });
    const field = dialog.getByLabel('Runs at once', { exact: true });
    await expect(field).toHaveValue('4');
    for (const [typed, words] of [
      ['17', "Runs at once can't be more than 16: enter a number from 1 to 16."],
      ['0', "Runs at once can't be less than 1: enter a number from 1 to 16."],
    ] as const) {
      await field.fill(typed);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog.getByRole('alert')).toHaveText(words);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toBeFocused();
    }
    expect(savedRuns()).toBeUndefined();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(field).toHaveValue('4');

    await field.fill('1');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    expect(savedRuns()).toBe(1);
    // The number saved is the queue's: with one run at once, a second chat waits for the first.
    await send(app, 'First chat');
    await expect(row(app, 'First chat')).toHaveAttribute('data-run', 'working');
    await openNewChat(app);
    await send(app, 'Second chat');
    await expect(row(app, 'Second chat')).toHaveAttribute('data-run', 'queued');
    await scripted.release();
    await expect(row(app, 'First chat')).toHaveAttribute('data-run', 'idle');
    await expect(row(app, 'Second chat')).toHaveAttribute('data-run', 'working');
    await scripted.release();
    await expect(row(app, 'Second chat')).toHaveAttribute('data-run', 'idle');
  });
});

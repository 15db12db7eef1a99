import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { RERUN_FILE, RERUN_FILE_TEXT, rerunLoose, rerunPlan, twoTries } from '../test-support/scenarios/reruns';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { startPersistentShell } from './support/persistent-shell';
import { send } from './support/plan-panel';
import { expect, test } from './support/recovery-fixtures';

// Edit message and Retry reply (docs/contract.md §5) in real Chromium against the web shell: the chat
// goes on from the edited message as a new version in place ("N/M", "Previous version" / "Next
// version"), the chat list gets no copy, files the replaced turns changed can be put back, and it
// all holds after a kill and a restart.

const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation', exact: true });
const message = (page: Page, text: string) => conversation(page).getByRole('article', { name: 'You', exact: true }).filter({ hasText: text });
const chats = (page: Page) => page.getByRole('navigation', { name: 'Chats', exact: true });
const versionsOf = (page: Page, text: string) => message(page, text).getByRole('group', { name: 'Versions of this message', exact: true });

async function editMessage(page: Page, from: string) {
  const article = message(page, from);
  await article.hover();
  await article.getByRole('button', { name: 'Edit message', exact: true }).click();
  return conversation(page).getByRole('form', { name: 'Edit message', exact: true });
}

test.describe('Edit message', () => {
  test.use({ scenario: rerunPlan, settingsFile: { autoApproveEdits: true, retryDelayMs: 0 }, workspaceFiles: { [RERUN_FILE]: RERUN_FILE_TEXT } });
  test.describe.configure({ timeout: 120_000 });

  test('Save and rerun replaces the message and what followed; the files are put back and the first version, one click away, keeps the rest', async ({ app, shell }) => {
    await send(app, 'Write the notes');
    await expect(conversation(app).getByText('NOTES.md is written; shall I review it next?')).toBeVisible();
    await expect(app.getByRole('region', { name: 'Task plan', exact: true })).toBeVisible();
    expect(readFileSync(join(shell.workspace, RERUN_FILE), 'utf8')).toContain('first version');

    const form = await editMessage(app, 'Write the notes');
    const box = form.getByRole('textbox', { name: 'Edited message', exact: true });
    await expect(box).toHaveValue('Write the notes');
    await expect(box).toBeFocused();
    const restore = form.getByRole('checkbox', { name: /First put back the file the replaced turns changed: NOTES\.md/ });
    await expect(restore).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'editing a message');
    await restore.check();
    await box.fill('Write short notes');
    await form.getByRole('button', { name: 'Save and rerun', exact: true }).click();

    await expect(conversation(app).getByText('You said: Write short notes')).toBeVisible();
    await expect(message(app, 'Write the notes')).toHaveCount(0);
    await expect(conversation(app).getByText('NOTES.md is written; shall I review it next?')).toHaveCount(0);
    await expect(app.getByRole('region', { name: 'Task plan', exact: true })).toHaveCount(0);
    expect(readFileSync(join(shell.workspace, RERUN_FILE), 'utf8')).toBe(RERUN_FILE_TEXT);
    await expect(conversation(app).getByRole('note').filter({ hasText: 'Edited and rerun from here.' })).toContainText('Put back: NOTES.md');

    // The chat as it was is the first version of the message, in the same chat: the list gets no row.
    const versions = versionsOf(app, 'Write short notes');
    await expect(versions.getByText('2/2', { exact: true })).toBeVisible();
    await expect(versions.getByRole('button', { name: 'Next version', exact: true })).toBeDisabled();
    await expect(chats(app).getByRole('listitem')).toHaveCount(1);
    await expect(chats(app).getByText('(earlier version)')).toHaveCount(0);
    await expectAccessibleInBothSchemes(app, 'an edited message with its versions');
    await versions.getByRole('button', { name: 'Previous version', exact: true }).click();
    await expect(conversation(app).getByText('NOTES.md is written; shall I review it next?')).toBeVisible();
    await expect(message(app, 'Write short notes')).toHaveCount(0);
    await expect(versionsOf(app, 'Write the notes').getByText('1/2', { exact: true })).toBeVisible();
    await expect(conversation(app).getByText('You said: Write short notes')).toHaveCount(0);
    await versionsOf(app, 'Write the notes').getByRole('button', { name: 'Next version', exact: true }).click();
    await expect(conversation(app).getByText('You said: Write short notes')).toBeVisible();
    await expect(message(app, 'Write the notes')).toHaveCount(0);
    await expect(chats(app).getByRole('listitem')).toHaveCount(1);
  });

  test('is reached with the keyboard, Escape cancels, and it is refused while Claude works (stop first)', async ({ app, scripted }) => {
    scripted.setScenario({ name: 'slow second', turns: [{ kind: 'text', text: 'First reply.' }, { kind: 'text', text: 'Second reply.' }] });
    await send(app, 'First question');
    await expect(conversation(app).getByText('First reply.')).toBeVisible();
    // Tab from the conversation reaches the message's button, which shows while it has the focus.
    await conversation(app).focus();
    await app.keyboard.press('Tab');
    const button = message(app, 'First question').getByRole('button', { name: 'Edit message', exact: true });
    await expect(button).toBeFocused();
    expect(await button.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await app.keyboard.press('Enter');
    const form = conversation(app).getByRole('form', { name: 'Edit message', exact: true });
    await expect(form.getByRole('textbox', { name: 'Edited message', exact: true })).toBeFocused();
    await app.keyboard.press('Escape');
    await expect(form).toHaveCount(0);
    await expect(button).toBeFocused();

    scripted.setScenario({ name: 'held', turns: [{ kind: 'text', text: 'Second reply.' }], gated: true });
    await send(app, 'Second question');
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    const editing = await editMessage(app, 'First question');
    await editing.getByRole('textbox', { name: 'Edited message', exact: true }).fill('First question, edited');
    await editing.getByRole('button', { name: 'Save and rerun', exact: true }).click();
    await expect(editing.getByRole('alert')).toHaveText('Claude is working in this chat: press Stop first, then edit a message.');
    await expect(message(app, 'Second question')).toBeVisible();

    await app.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    scripted.setScenario({ name: 'echo', turns: [] });
    await editing.getByRole('button', { name: 'Save and rerun', exact: true }).click();
    await expect(conversation(app).getByText('You said: First question, edited')).toBeVisible();
    await expect(message(app, 'Second question')).toHaveCount(0);

    // While Claude works, the versions cannot be switched: the run goes on in the version it started in.
    scripted.setScenario({ name: 'held again', turns: [{ kind: 'text', text: 'Third reply.' }], gated: true });
    await send(app, 'Third question');
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await expect(versionsOf(app, 'First question, edited').getByRole('button', { name: 'Previous version', exact: true })).toBeDisabled();
    await app.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(versionsOf(app, 'First question, edited').getByRole('button', { name: 'Previous version', exact: true })).toBeEnabled();
    expect(scripted.invalid).toEqual([]);
  });
});

test.describe('Files changed outside any plan', () => {
  test.use({ scenario: rerunLoose, settingsFile: { autoApproveEdits: true, autoApproveCommands: true, retryDelayMs: 0 }, workspaceFiles: { [RERUN_FILE]: RERUN_FILE_TEXT } });
  test.describe.configure({ timeout: 120_000 });
  const LOOSE_TEXT = '# Notes\n\nWritten without a plan.\n';
  const COMMANDS_NOTE = 'Claude ran a command in the replaced turns: what it changed cannot be put back.';

  test('Edit message offers to put back a file written without a plan, says the command stays, and puts the file back', async ({ app, shell, scripted }) => {
    await send(app, 'Write the notes');
    await expect(conversation(app).getByText('NOTES.md is written.')).toBeVisible();
    await expect(app.getByRole('region', { name: 'Task plan', exact: true })).toHaveCount(0);
    expect(readFileSync(join(shell.workspace, RERUN_FILE), 'utf8')).toBe(LOOSE_TEXT);

    const form = await editMessage(app, 'Write the notes');
    const restore = form.getByRole('checkbox', { name: 'First put back the file the replaced turns changed: NOTES.md', exact: true });
    await expect(restore).toBeVisible();
    await expect(form.getByText(COMMANDS_NOTE, { exact: true })).toBeVisible();
    await restore.check();
    scripted.setScenario({ name: 'echo', turns: [] });
    await form.getByRole('textbox', { name: 'Edited message', exact: true }).fill('Write nothing yet');
    await form.getByRole('button', { name: 'Save and rerun', exact: true }).click();

    await expect(conversation(app).getByText('You said: Write nothing yet')).toBeVisible();
    expect(readFileSync(join(shell.workspace, RERUN_FILE), 'utf8')).toBe(RERUN_FILE_TEXT);
    await expect(conversation(app).getByRole('note').filter({ hasText: 'Edited and rerun from here.' })).toContainText('Put back: NOTES.md');
  });

  test('Retry reply offers it too, and puts the file back when asked', async ({ app, shell, scripted }) => {
    await send(app, 'Write the notes');
    await expect(conversation(app).getByText('NOTES.md is written.')).toBeVisible();
    await conversation(app).getByRole('button', { name: 'Retry reply', exact: true }).click();
    const offer = conversation(app).getByRole('group', { name: 'Retry reply', exact: true });
    await offer.getByRole('checkbox', { name: 'First put back the file the replaced turn changed: NOTES.md', exact: true }).check();
    await expect(offer.getByText('Claude ran a command in the replaced turn: what it changed cannot be put back.', { exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'the Retry reply offer');
    scripted.setScenario({ name: 'echo', turns: [] });
    await offer.getByRole('button', { name: 'Retry reply', exact: true }).click();
    await expect(conversation(app).getByText('You said: Write the notes')).toBeVisible();
    expect(readFileSync(join(shell.workspace, RERUN_FILE), 'utf8')).toBe(RERUN_FILE_TEXT);
  });
});

test.describe('Retry reply', () => {
  test.use({ scenario: twoTries });
  test.describe.configure({ timeout: 90_000 });

  test('asks again with the same message; the new reply is a new version of the reply, with "N/M" on it', async ({ app, scripted }) => {
    await send(app, 'Name three colours');
    await expect(conversation(app).getByText('Red, green and blue.')).toBeVisible();
    await conversation(app).getByRole('button', { name: 'Retry reply', exact: true }).click();
    await expect(conversation(app).getByText('Cyan, magenta and yellow.')).toBeVisible();
    await expect(conversation(app).getByText('Red, green and blue.')).toHaveCount(0);
    await expect(message(app, 'Name three colours')).toHaveCount(1);
    expect(JSON.stringify((scripted.requests[1]!.body as { messages: unknown }).messages)).toBe(JSON.stringify((scripted.requests[0]!.body as { messages: unknown }).messages));
    await expect(conversation(app).getByRole('button', { name: 'Retry reply', exact: true })).toHaveCount(1);
    const reply = conversation(app).getByRole('article', { name: 'Claude', exact: true }).filter({ hasText: 'Cyan, magenta and yellow.' });
    const versions = reply.getByRole('group', { name: 'Versions of this reply', exact: true });
    await expect(versions.getByText('2/2', { exact: true })).toBeVisible();
    await expect(chats(app).getByRole('listitem')).toHaveCount(1);
    await expectAccessibleInBothSchemes(app, 'a retried reply');
    await versions.getByRole('button', { name: 'Previous version', exact: true }).click();
    await expect(conversation(app).getByText('Red, green and blue.')).toBeVisible();
    await expect(conversation(app).getByText('Cyan, magenta and yellow.')).toHaveCount(0);
    await expect(conversation(app).getByRole('group', { name: 'Versions of this reply', exact: true }).getByText('1/2', { exact: true })).toBeVisible();
    await expect(chats(app).getByRole('listitem')).toHaveCount(1);
  });
});

test('an edit and its versions hold after the app is killed and started again; the chat list keeps one row', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    await send(page, 'alpha');
    await expect(conversation(page).getByText('You said: alpha')).toBeVisible();
    await send(page, 'beta');
    await expect(conversation(page).getByText('You said: beta')).toBeVisible();
    const form = await editMessage(page, 'alpha');
    await form.getByRole('textbox', { name: 'Edited message', exact: true }).fill('gamma');
    await form.getByRole('button', { name: 'Save and rerun', exact: true }).click();
    await expect(conversation(page).getByText('You said: gamma')).toBeVisible();

    const next = await shell.restart('kill');
    await page.goto(next.url);
    await expect(conversation(page).getByText('You said: gamma')).toBeVisible();
    await expect(conversation(page).getByText('You said: beta')).toHaveCount(0);
    await expect(message(page, 'alpha')).toHaveCount(0);
    await expect(chats(page).getByRole('listitem')).toHaveCount(1);
    await expect(versionsOf(page, 'gamma').getByText('2/2', { exact: true })).toBeVisible();
    await versionsOf(page, 'gamma').getByRole('button', { name: 'Previous version', exact: true }).click();
    await expect(conversation(page).getByText('You said: beta')).toBeVisible();
    // A message sent while an earlier version is shown goes on in that version.
    await send(page, 'delta');
    await expect(conversation(page).getByText('You said: delta')).toBeVisible();
    expect(JSON.stringify(scripted.requests.at(-1)!.body)).not.toContain('gamma');
    await expect(chats(page).getByRole('listitem')).toHaveCount(1);
    expect(scripted.invalid).toEqual([]);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

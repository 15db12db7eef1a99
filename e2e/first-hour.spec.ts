import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectFullyInView } from './support/in-view';
import { send } from './support/plan-panel';

// The small things a new user notices in the first hour: the open chat and its draft survive a
// reload, Settings explains itself, a stale link and a broken MCP server are told in words, and
// the first-run screen says what happens to the key.
test.describe.configure({ timeout: 120_000 });

test('a reload keeps the open chat (not the newest) and each chat keeps its own draft', async ({ app }) => {
  const message = app.getByRole('textbox', { name: 'Message', exact: true });
  const chats = app.getByRole('navigation', { name: 'Chats', exact: true });
  const title = app.getByRole('heading', { level: 1 });
  await expect(message).toBeFocused(); // the message box has the focus on load

  await send(app, 'First chat about parsers');
  await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('You said: First chat about parsers')).toBeVisible();
  await app.getByRole('button', { name: 'New chat', exact: true }).click();
  await expect(title).toHaveText('New chat');
  await send(app, 'Second chat about themes');
  await expect(chats.getByRole('button', { name: 'Second chat about themes', exact: true })).toBeVisible();

  // The older chat, under the newest one in the list: open it, start a draft, reload.
  await chats.getByRole('button', { name: 'First chat about parsers', exact: true }).click();
  await expect(title).toHaveText('First chat about parsers');
  await message.fill('Half a thought about the lexer');
  await app.reload();
  await expect(title).toHaveText('First chat about parsers');
  await expect(message).toHaveValue('Half a thought about the lexer');
  await expect(message).toBeFocused();

  // Drafts never leak between chats, and follow each chat across switches.
  await chats.getByRole('button', { name: 'Second chat about themes', exact: true }).click();
  await expect(title).toHaveText('Second chat about themes');
  await expect(message).toHaveValue('');
  await message.fill('Dark mode draft');
  await chats.getByRole('button', { name: 'First chat about parsers', exact: true }).click();
  await expect(message).toHaveValue('Half a thought about the lexer');
  await chats.getByRole('button', { name: 'Second chat about themes', exact: true }).click();
  await expect(message).toHaveValue('Dark mode draft');

  // A sent draft is gone, also after a reload.
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(message).toHaveValue('');
  await app.reload();
  await expect(title).toHaveText('Second chat about themes');
  await expect(message).toHaveValue('');
});

test('Settings: limits shown, errors in words next to the field, in view; Theme applies at once and Cancel reverts', async ({ app }) => {
  const LIGHT_BG = 'rgb(250, 249, 247)';
  const DARK_BG = 'rgb(31, 30, 28)';
  const background = () => app.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await app.emulateMedia({ colorScheme: 'dark' });
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = app.getByRole('dialog', { name: 'Settings', exact: true });
  const retries = dialog.getByRole('spinbutton', { name: 'Max retries', exact: true });
  await expect(retries).toHaveAttribute('min', '0');
  await expect(retries).toHaveAttribute('max', '10');
  await expect(retries).toHaveAccessibleDescription('From 0 to 10.');

  await retries.fill('-5');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  const error = dialog.getByText("Max retries can't be less than 0: enter a number from 0 to 10.");
  await expect(error).toBeVisible();
  await expect(retries).toHaveAttribute('aria-invalid', 'true');
  await expect(retries).toHaveAccessibleDescription("From 0 to 10. Max retries can't be less than 0: enter a number from 0 to 10.");
  await expect(retries).toBeFocused();
  await expectFullyInView(error, 'the error next to Max retries');
  await expect(dialog).toBeVisible(); // nothing saved, nothing closed
  await expectAccessibleInBothSchemes(app, 'Settings with a field error');
  await app.emulateMedia({ colorScheme: 'dark' }); // the axe helper leaves the OS light

  await retries.fill('3');
  await expect(error).toHaveCount(0);
  await dialog.getByLabel('Theme').selectOption({ label: 'Light' });
  await expect.poll(background).toBe(LIGHT_BG); // at once, before Save
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(background).toBe(DARK_BG);

  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(retries).toHaveValue('2'); // Cancel kept nothing
  await retries.fill('3');
  await dialog.getByLabel('Theme').selectOption({ label: 'Light' });
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(background).toBe(LIGHT_BG);
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(retries).toHaveValue('3');
});

test('a wrong or stale token says the link is no longer valid; a stopped shell is "reconnecting"', async ({ app, shell }) => {
  await app.goto(shell.url.replace(/token=[^&]+/, 'token=a-token-of-an-earlier-start'));
  const refused = app.getByRole('alert');
  await expect(refused.getByRole('heading', { name: 'This link is no longer valid', exact: true })).toBeVisible();
  await expect(refused).toContainText('Open the URL the shell printed when it started');
  await expect(app.getByText(/retrying/)).toHaveCount(0);
  await expectAccessibleInBothSchemes(app, 'a stale link');

  await app.goto(shell.url);
  await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
  await shell.stop(); // the shell is down, not the link: keep trying, and say so
  await expect(app.getByRole('status').filter({ hasText: /Reconnecting/ })).toBeVisible();
  await expect(app.getByText('This link is no longer valid')).toHaveCount(0);
});

test.describe('first run', () => {
  test.use({ apiKey: null });

  test('says the web shell keeps the key in memory for this run, with the cursor in the key field', async ({ app }) => {
    await expect(app.getByRole('heading', { name: 'Welcome to Waypoint', exact: true })).toBeVisible();
    const key = app.getByLabel('API key');
    await expect(key).toBeFocused();
    await expect(key).toHaveAccessibleDescription(/This web shell keeps it in memory only, for this run/);
    await expect(app.getByText(/stored on this computer|encrypted/)).toHaveCount(0);
  });
});

test.describe('an MCP server that cannot start', () => {
  test.use({ mcpConfig: { mcpServers: { nope: { command: 'waypoint-no-such-command' } } } });

  test('is told once, in the app, in words, with a way to Settings; the header\'s "Settings" stays unambiguous', async ({ app }) => {
    const notice = app.getByRole('alert').filter({ hasText: 'MCP server' });
    await expect(notice).toContainText(
      'The MCP server "nope" could not start: the command "waypoint-no-such-command" was not found. Install it, or fix "command" in its settings.',
    );
    await expect(notice).not.toContainText('ENOENT');
    await expect(app.getByRole('button', { name: 'Settings', exact: true })).toHaveCount(1);
    await expectAccessibleInBothSchemes(app, 'MCP failure notice');
    await notice.getByRole('button', { name: 'Review MCP servers', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Settings', exact: true });
    await expect(dialog.getByLabel('MCP servers JSON')).toBeFocused();
    await expect(dialog.getByRole('list', { name: 'MCP server status', exact: true }).getByRole('listitem').filter({ hasText: 'nope' })).toContainText(
      'the command "waypoint-no-such-command" was not found',
    );
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(notice).toHaveCount(0);
    await app.reload();
    await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
    await expect(notice).toHaveCount(0); // told once
  });
});

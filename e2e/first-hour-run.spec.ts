import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationSkip } from '../test-support/scenarios/recovery-escalation';
import { expect, test } from './support/recovery-fixtures';
import { send } from './support/plan-panel';
import { scrollLogToTop } from './support/transcript';

// Small things a new user meets in the first hour (issue 12, part A): model names, New chat, the icon,
// and never being asked to approve a call that cannot work.
test.describe.configure({ timeout: 90_000 });

test.describe('models by name', () => {
  test('Settings lists models by display name, always with the default; the header names the current one', async ({ app }) => {
    // The scripted Models API does not list the default model (claude-sonnet-5-5). The open chat
    // has no model of its own: its "Chat model" picker shows the default, and follows it.
    const chatModel = app.getByRole('main').getByRole('combobox', { name: 'Chat model', exact: true }).locator('option:checked');
    await expect(chatModel).toHaveText('Claude Sonnet 5.5');
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const model = app.getByRole('dialog').getByLabel('Model', { exact: true });
    await expect(model.getByRole('option', { name: 'Claude Haiku 4.5', exact: true })).toHaveCount(1);
    const options = await model.getByRole('option').allTextContents();
    expect(options).toContain('Claude Sonnet 5.5');
    expect(options.filter((o) => /claude-/.test(o))).toEqual([]);
    await model.selectOption({ label: 'Claude Haiku 4.5' });
    await app.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(app.getByRole('dialog')).toHaveCount(0);
    await expect(chatModel).toHaveText('Claude Haiku 4.5');

    // Changed away, the default can still be chosen again.
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    await app.getByRole('dialog').getByLabel('Model', { exact: true }).selectOption({ label: 'Claude Sonnet 5.5' });
    await app.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(chatModel).toHaveText('Claude Sonnet 5.5');
  });
});

test.describe('New chat', () => {
  test.use({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });

  test('pressed three times gives one empty chat; a chat with a message stays, and the next New chat is new', async ({ app }) => {
    const chats = app.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('listitem');
    // The sidebar's first button; an empty chat's own entry is titled "New chat" too.
    const newChat = app.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('button', { name: 'New chat', exact: true }).first();
    for (let i = 0; i < 3; i++) await newChat.click();
    await expect(chats).toHaveCount(1);
    await send(app, 'Hello there');
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('You said: Hello there')).toBeVisible();
    await newChat.click();
    await newChat.click();
    await expect(chats).toHaveCount(2);
    await expect(app.getByRole('heading', { level: 1 })).toHaveText('New chat');
  });
});

test.describe('the icon', () => {
  test('the page has a favicon, served as SVG under the strict CSP, with no CSP complaint', async ({ page, shell }) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    const icon = page.waitForResponse((r) => r.url().includes('favicon.svg'));
    await page.goto(shell.url);
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBe('./favicon.svg');
    const response = await icon;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('image/svg+xml');
    await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
    expect(problems.filter((p) => /favicon|img-src/i.test(p))).toEqual([]);
  });
});

test.describe('calls that cannot work', () => {
  test.use({
    scenario: recoveryEscalationSkip,
    settingsFile: { autoApproveEdits: false, retryDelayMs: 0 },
    workspaceFiles: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
    viewport: { width: 1280, height: 1600 },
  });

  test('an edit whose old text is not in the file is never put to the user: the step fails, then asks how to go on', async ({ app }) => {
    await send(app, 'Tidy notes.txt');
    // Three failed edits, not one approval: the next question is the stuck step's.
    const stuck = app.getByRole('alertdialog', { name: /needs your attention/ });
    await expect(stuck).toBeVisible();
    await expect(app.getByRole('alertdialog', { name: /Approve/ })).toHaveCount(0);
    // The stuck step lists the three attempts; each was an edit that failed, none was asked about.
    await expect(stuck.getByRole('listitem').filter({ hasText: 'edit_file' })).toHaveCount(3);
    // The transcript is virtualised and the stuck step's card takes most of an 800 px screen: on
    // a tall screen, from the top, as a person would, the three tool cards are seen together.
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await scrollLogToTop(app);
    await expect(log.getByRole('button', { name: /^edit_file/ })).toHaveCount(3);
    for (const card of await log.getByRole('button', { name: /^edit_file/ }).all()) await expect(card).toContainText('failed');
  });
});

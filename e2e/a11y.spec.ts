import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plansShowcase } from '../test-support/scenarios/plans-showcase';
import { APP_JS, toolsEdit } from '../test-support/scenarios/tools-workspace';
import { expectAccessible, expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectProgress, planPanel, send } from './support/plan-panel';

// axe-core (WCAG 2.1 A/AA) on every main screen, in light and in dark, with zero violations.
// No rule is disabled: a violation is fixed in the app, not here. Each axe run takes a few
// seconds on a busy machine, hence the longer timeout.
test.describe.configure({ timeout: 120_000 });

const CODE_REPLY =
  'Here is the function, with a test:\n\n```ts\nexport function add(a: number, b: number): number {\n  // keep it pure\n  return a + b;\n}\nconst s = "text";\n```\n\nRun it with `npm test`.';

test.describe('onboarding', () => {
  test.use({ apiKey: null });

  test('the first-run key screen', async ({ app }) => {
    await expect(app.getByRole('heading', { name: 'Welcome to Waypoint', exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'onboarding');
  });
});

test.describe('chat', () => {
  test.use({
    scenario: {
      name: 'a11y-chat',
      turns: [
        { kind: 'tool_use', text: 'Let me look at the folder first.', calls: [{ name: 'list_directory', input: { path: '.' } }] },
        { kind: 'text', text: CODE_REPLY },
      ],
    },
  });

  test('a streamed reply with a code block and a tool card', async ({ app }) => {
    await send(app, 'Write an add function');
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.locator('pre code')).toContainText('return a + b;');
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    const card = log.getByRole('button', { name: /^list_directory/ });
    await expect(card).toContainText('done');
    await expectAccessibleInBothSchemes(app, 'chat');
    await card.click(); // the tool card opened, with its input and result
    await expect(card).toHaveAttribute('aria-expanded', 'true');
    await expectAccessibleInBothSchemes(app, 'chat, tool card open');
  });
});

test.describe('plan panel', () => {
  test.use({ scenario: { ...plansShowcase, gated: true } });

  test('open and collapsed, mid-run', async ({ app, scripted }) => {
    await send(app, 'Add a dark mode toggle to the settings page.');
    await scripted.release(6);
    await expectProgress(app, 2, 5);
    const panel = planPanel(app);
    await expect(panel.header).toHaveAttribute('aria-expanded', 'true');
    await expectAccessibleInBothSchemes(app, 'plan panel open');
    await panel.header.click();
    await expect(panel.header).toHaveAttribute('aria-expanded', 'false');
    await expectAccessibleInBothSchemes(app, 'plan panel collapsed');
  });
});

test.describe('approval card', () => {
  test.use({ scenario: toolsEdit });

  test('a file change waiting for Approve / Deny', async ({ app, shell }) => {
    mkdirSync(join(shell.workspace, 'src'), { recursive: true });
    writeFileSync(join(shell.workspace, 'src', 'app.js'), APP_JS);
    await send(app, 'Fix the answer in src/app.js');
    const card = app.getByRole('alertdialog', { name: /Approve/ });
    await expect(card.locator('[data-diff="add"]')).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'approval');
  });
});

test.describe('settings dialog', () => {
  const SERVER = resolve('test-support/mcp-server/stdio.ts');
  test.use({
    mcpConfig: {
      mcpServers: {
        test: { command: process.execPath, args: ['--import', 'tsx', SERVER] },
        broken: { command: process.execPath, args: ['--import', 'tsx', SERVER, '--fail-at-start'] },
      },
    },
  });

  test('every field, and the MCP section with a ready and a failed server', async ({ app }) => {
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = app.getByRole('dialog');
    const status = dialog.getByRole('list', { name: 'MCP server status', exact: true });
    await expect(status.getByRole('listitem').filter({ hasText: /^test/ })).toContainText('ready');
    await expect(status.getByRole('listitem').filter({ hasText: 'broken' })).toHaveAttribute('data-status', 'failed');
    await expectAccessibleInBothSchemes(app, 'settings');
  });
});

test.describe('themes', () => {
  const LIGHT_BG = 'rgb(250, 249, 247)';
  const DARK_BG = 'rgb(31, 30, 28)';

  test('follow the OS by default; the Settings theme applies at once, wins over the OS and is kept', async ({ app }) => {
    const background = () => app.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const chooseTheme = async (label: string) => {
      await app.getByRole('button', { name: 'Settings', exact: true }).click();
      await app.getByRole('dialog').getByLabel('Theme').selectOption({ label });
      await app.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
      await expect(app.getByRole('dialog')).toHaveCount(0);
    };
    await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
    await app.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe(LIGHT_BG);
    await app.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe(DARK_BG);

    await chooseTheme('Light'); // while the OS is dark
    await expect.poll(background).toBe(LIGHT_BG);
    await expectAccessible(app, 'light theme on a dark OS', 'dark');

    await chooseTheme('Dark'); // while the OS is light
    await expect.poll(background).toBe(DARK_BG);
    await expectAccessible(app, 'dark theme on a light OS', 'light');
    await app.reload();
    await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
    expect(await background()).toBe(DARK_BG);

    await chooseTheme('Match system');
    await expect.poll(background).toBe(LIGHT_BG);
  });

  test('the keyboard shortcuts list', async ({ app }) => {
    await app.getByRole('button', { name: 'Keyboard shortcuts', exact: true }).click();
    await expect(app.getByRole('dialog', { name: 'Keyboard shortcuts', exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'keyboard shortcuts');
  });
});

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import type { Scenario } from '../test-support/scripted-api/scenario';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { openNewChat, send } from './support/plan-panel';

// Approval scopes (docs/contract.md §5) in real Chromium against the web shell, with real commands run
// in the shell's workspace: Approve / Approve for this chat / Always approve / Deny, and the
// saved rules in Settings → Approval rules.

const approval = (page: Page) => page.getByRole('alertdialog', { name: /Approve/ });
const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation', exact: true });
const run = (command: string) => ({ kind: 'tool_use' as const, calls: [{ name: 'run_command', input: { command } }] });
const said = (text: string) => ({ kind: 'text' as const, text });

const scoped: Scenario = {
  name: 'scoped-commands',
  turns: [
    run('echo scoped'),
    said('Ran it once.'),
    run('echo   scoped'),
    said('Ran it again.'),
    run('echo scoped'),
    said('Ran it in the other chat.'),
    run('echo scoped'),
    said('Ran it in a third chat.'),
  ],
};

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  return page.getByRole('dialog', { name: 'Settings', exact: true });
}

test.describe('scoped approvals', () => {
  test.use({ scenario: scoped });
  test.describe.configure({ timeout: 120_000 }); // four axe runs on a shared machine

  test('"Approve for this chat" holds in that chat only; "Always approve" saves a rule Settings lists and removes at once', async ({ app, shell, scripted }) => {
    await send(app, 'Run echo scoped');
    const card = approval(app);
    await expect(card).toBeVisible();
    for (const name of ['Approve', 'Approve for this chat', 'Always approve', 'Deny']) {
      await expect(card.getByRole('button', { name, exact: true })).toBeEnabled();
    }
    await expect(card).toContainText('exactly the command “echo scoped”');
    await expectAccessibleInBothSchemes(app, 'approval with scopes');
    await card.getByRole('button', { name: 'Approve for this chat', exact: true }).click();
    await expect(conversation(app).getByText('Ran it once.')).toBeVisible();

    // The same command line again (other spacing): no question.
    await send(app, 'Once more');
    await expect(conversation(app).getByText('Ran it again.')).toBeVisible();
    expect(scripted.requests).toHaveLength(4);

    // Another chat asks again; "Always approve" there saves a rule for every chat.
    await openNewChat(app);
    await send(app, 'Run it here');
    await approval(app).getByRole('button', { name: 'Always approve', exact: true }).click();
    await expect(conversation(app).getByText('Ran it in the other chat.')).toBeVisible();

    const saved = JSON.parse(readFileSync(join(shell.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ autoApproveCommands: false, autoApproveEdits: false });
    const dialog = await openSettings(app);
    await expect(dialog.getByLabel('Auto-approve commands')).not.toBeChecked();
    const rules = dialog.getByRole('list', { name: 'Approval rules', exact: true });
    await expect(rules.getByRole('listitem')).toHaveCount(1);
    await expect(rules.getByRole('listitem')).toHaveText(/Always allow run_command: echo scoped/);
    await expectAccessibleInBothSchemes(app, 'settings with an approval rule');

    // Every rule's button has the same name; its description says which rule it removes.
    const remove = rules.getByRole('listitem').getByRole('button', { name: 'Remove rule', exact: true });
    await expect(remove).toHaveAccessibleDescription('Always allow run_command: echo scoped');
    // Remove rule takes effect at once (no Save): a third chat asks again.
    await remove.click();
    await expect(dialog.getByText('No saved rules')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await openNewChat(app);
    await send(app, 'And here');
    await expect(approval(app)).toBeVisible();
    await approval(app).getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(conversation(app).getByText('Ran it in a third chat.')).toBeVisible();
  });
});

const mcpCall = (name: string, input: Record<string, unknown>) => ({ kind: 'tool_use' as const, calls: [{ name, input }] });

test.describe('an MCP tool', () => {
  // A real MCP server process (test-support/mcp-server), given with --mcp-config.
  const server = { command: process.execPath, args: ['--import', 'tsx', resolve('test-support/mcp-server/stdio.ts')] };
  test.use({
    mcpConfig: { mcpServers: { test: server } },
    scenario: {
      name: 'mcp-scopes',
      turns: [
        mcpCall('test__echo', { text: 'one' }),
        said('Echoed once.'),
        mcpCall('test__echo', { text: 'two' }),
        said('Echoed again.'),
        mcpCall('test__add', { a: 2, b: 3 }),
        said('Could not add.'),
      ],
    },
  });

  test('"Approve for this chat" covers that tool of that server, with any input, and not its other tools', async ({ app, scripted }) => {
    // Its tools are offered once it is up (a slow start on a loaded machine).
    const settings = await openSettings(app);
    await expect(settings.getByRole('list', { name: 'MCP server status', exact: true }).getByRole('listitem').filter({ hasText: 'test' })).toContainText('ready', { timeout: 30_000 });
    await settings.getByRole('button', { name: 'Cancel', exact: true }).click();
    await send(app, 'Echo one');
    const card = approval(app);
    await expect(card).toContainText('from MCP server test');
    await card.getByRole('button', { name: 'Approve for this chat', exact: true }).click();
    await expect(conversation(app).getByText('Echoed once.')).toBeVisible();

    await send(app, 'Echo two');
    await expect(conversation(app).getByText('Echoed again.')).toBeVisible();
    expect(JSON.stringify(scripted.requests[3]!.body)).toContain('echo: two');

    await send(app, 'Add them');
    await approval(app).getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(conversation(app).getByText('Could not add.')).toBeVisible();
    const denied = JSON.stringify(scripted.requests[5]!.body);
    expect(denied).toContain('"is_error":true');
    expect(denied).toContain('The user denied this test__add call');
    expect(scripted.invalid).toEqual([]);
  });
});

test.describe('rules made in Settings', () => {
  test.use({ scenario: { name: 'never', turns: [run('rm -rf build'), said('It was refused.')] } });

  test('an empty pattern is refused clearly; a "Never allow" rule refuses the call without asking', async ({ app, scripted }) => {
    const dialog = await openSettings(app);
    await dialog.getByLabel('Tool', { exact: true }).selectOption('run_command');
    await dialog.getByRole('button', { name: 'Add rule', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('An approval rule needs a pattern');
    await expect(dialog.getByRole('list', { name: 'Approval rules', exact: true })).toHaveCount(0);

    await dialog.getByLabel('Command or path').fill('rm   -rf build');
    await dialog.getByLabel('Decision').selectOption('deny');
    await dialog.getByLabel('Command or path').press('Enter');
    await expect(dialog.getByRole('list', { name: 'Approval rules', exact: true }).getByRole('listitem')).toHaveText(/Never allow run_command: rm {3}-rf build/);
    await expect(dialog).toBeVisible(); // Enter added the rule; it did not submit the dialog
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    await send(app, 'Clean the build folder');
    await expect(conversation(app).getByText('It was refused.')).toBeVisible();
    await expect(approval(app)).toHaveCount(0);
    await expect(conversation(app).getByRole('button', { name: /^run_command/ })).toContainText('denied');
    const body = JSON.stringify(scripted.requests[1]!.body);
    expect(body).toContain('"is_error":true');
    expect(body).toContain("never allow this run_command call");
  });
});

test.describe('a rule added in Settings applies on Save only', () => {
  test.use({ scenario: { name: 'save-only', turns: [run('rm -rf build'), said('You were asked first.'), run('rm -rf build'), said('It was refused.')] } });
  test.describe.configure({ timeout: 120_000 });

  test('Cancel drops it (the call still asks); Save applies it; a refusal is said once, with no stale "Added"', async ({ app, scripted }) => {
    let dialog = await openSettings(app);
    let rules = dialog.getByRole('group', { name: 'Approval rules', exact: true });
    await rules.getByLabel('Command or path', { exact: true }).fill('rm -rf build');
    await rules.getByLabel('Decision', { exact: true }).selectOption('deny');
    await rules.getByRole('button', { name: 'Add rule', exact: true }).click();
    await expect(rules.getByRole('list', { name: 'Approval rules', exact: true }).getByRole('listitem')).toHaveText(/Never allow run_command: rm -rf build \(not saved yet: Save applies it\)/);
    await expect(rules.getByRole('status')).toHaveText('Added: Never allow run_command: rm -rf build. It applies when you press Save.');
    // An empty pattern: one sentence, once, and the "Added" above is gone.
    await rules.getByRole('button', { name: 'Add rule', exact: true }).click();
    await expect(rules.getByRole('alert')).toHaveText(
      'Rule not added: An approval rule needs a pattern: the exact command line for run_command, a path in the workspace (** for any) for write_file and edit_file.',
      { useInnerText: true },
    );
    await expect(rules.getByRole('status')).toHaveText('');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    // Cancelled: no rule, so the call asks.
    await send(app, 'Clean the build folder');
    await approval(app).getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(conversation(app).getByText('You were asked first.')).toBeVisible();

    dialog = await openSettings(app);
    rules = dialog.getByRole('group', { name: 'Approval rules', exact: true });
    await expect(rules.getByRole('list', { name: 'Approval rules', exact: true })).toHaveCount(0);
    await rules.getByLabel('Command or path', { exact: true }).fill('rm -rf build');
    await rules.getByLabel('Decision', { exact: true }).selectOption('deny');
    await rules.getByRole('button', { name: 'Add rule', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    // Saved: refused without asking.
    await send(app, 'Clean it again');
    await expect(conversation(app).getByText('It was refused.')).toBeVisible();
    await expect(approval(app)).toHaveCount(0);
    expect(JSON.stringify(scripted.requests[3]!.body)).toContain('never allow this run_command call');
    dialog = await openSettings(app);
    await expect(dialog.getByRole('list', { name: 'Approval rules', exact: true }).getByRole('listitem')).toHaveText(/^Never allow run_command: rm -rf buildRemove rule$/);
  });
});

test.describe('an MCP tool rule made in Settings', () => {
  const server = { command: process.execPath, args: ['--import', 'tsx', resolve('test-support/mcp-server/stdio.ts')] };
  test.use({ mcpConfig: { mcpServers: { test: server } }, scenario: { name: 'mcp-never', turns: [mcpCall('test__add', { a: 2, b: 3 }), said('Adding was refused.')] } });

  test('the running server\'s tools are offered by name; "Never allow" on one refuses its calls without asking', async ({ app, scripted }) => {
    const dialog = await openSettings(app);
    await expect(dialog.getByRole('list', { name: 'MCP server status', exact: true }).getByRole('listitem').filter({ hasText: 'test' })).toContainText('ready', { timeout: 30_000 });
    const tool = dialog.getByLabel('Tool', { exact: true });
    // Listed under its server (a closed select's groups are not in the accessibility tree: read the DOM).
    await expect(tool.locator('optgroup[label="MCP server test"] > option')).toContainText(['echo', 'add', 'fail']);
    await tool.selectOption({ label: 'add' });
    await expect(dialog.getByLabel('Command or path')).toHaveCount(0);
    await dialog.getByLabel('Decision').selectOption('deny');
    await dialog.getByRole('button', { name: 'Add rule', exact: true }).click();
    await expect(dialog.getByRole('list', { name: 'Approval rules', exact: true }).getByRole('listitem')).toHaveText(/Never allow add \(MCP server test\): every call/);
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    await send(app, 'Add two and three');
    await expect(conversation(app).getByText('Adding was refused.')).toBeVisible();
    await expect(approval(app)).toHaveCount(0);
    const body = JSON.stringify(scripted.requests[1]!.body);
    expect(body).toContain('"is_error":true');
    expect(scripted.invalid).toEqual([]);
  });
});

test.describe('a command with shell operators', () => {
  test.use({ scenario: { name: 'chained', turns: [run('echo a && echo b'), said('Both ran.')] } });

  test('can only be approved once: the scoped answers are offered disabled, with the reason', async ({ app }) => {
    await send(app, 'Run both');
    const card = approval(app);
    await expect(card.getByRole('button', { name: 'Approve for this chat', exact: true })).toBeDisabled();
    await expect(card.getByRole('button', { name: 'Always approve', exact: true })).toBeDisabled();
    await expect(card).toContainText('can only be approved once');
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(conversation(app).getByText('Both ran.')).toBeVisible();
  });
});

test('a pending approval and the scoped answers hold when the app is killed and started again', async ({ page }) => {
  test.setTimeout(120_000); // three starts of the shell on a shared machine
  const scenario: Scenario = {
    name: 'scopes-across-restarts',
    turns: [
      run('echo kept'),
      said('Ran it in this chat.'),
      run('echo   kept'),
      said('Ran it again without asking.'),
      run('echo kept'),
      said('Ran it in the second chat.'),
      run('echo kept'),
      said('Ran it in a third chat without asking.'),
    ],
  };
  const scripted = await startScriptedServer({ scenario });
  const shell = await startPersistentShell(scripted.url);
  const chats = page.getByRole('navigation', { name: 'Chats', exact: true });
  try {
    await page.goto(shell.current.url);
    await send(page, 'Run echo kept');
    await expect(approval(page)).toBeVisible();

    // Killed while the approval waits: it is asked again, with its four answers.
    await page.goto((await shell.restart('kill')).url);
    // A chat-list button's name is the chat's title with its state, so it is matched in part.
    await chats.getByRole('button', { name: 'Run echo kept' }).click();
    for (const name of ['Approve', 'Approve for this chat', 'Always approve', 'Deny']) {
      await expect(approval(page).getByRole('button', { name, exact: true })).toBeEnabled();
    }
    await approval(page).getByRole('button', { name: 'Approve for this chat', exact: true }).click();
    await expect(conversation(page).getByText('Ran it in this chat.')).toBeVisible();

    // The chat's own rule came back with its log.
    await page.goto((await shell.restart('kill')).url);
    await chats.getByRole('button', { name: 'Run echo kept' }).click();
    await send(page, 'Once more');
    await expect(conversation(page).getByText('Ran it again without asking.')).toBeVisible();
    await expect(approval(page)).toHaveCount(0);

    // Never in another chat; "Always approve" there holds for every chat after a restart.
    await openNewChat(page);
    await send(page, 'Second chat');
    await approval(page).getByRole('button', { name: 'Always approve', exact: true }).click();
    await expect(conversation(page).getByText('Ran it in the second chat.')).toBeVisible();
    await page.goto((await shell.restart('quit')).url);
    await openNewChat(page);
    await send(page, 'Third chat');
    await expect(conversation(page).getByText('Ran it in a third chat without asking.')).toBeVisible();
    await expect(approval(page)).toHaveCount(0);
    expect(scripted.requests).toHaveLength(8);
    expect(scripted.invalid).toEqual([]);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

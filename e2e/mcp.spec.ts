import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { toolsMcp } from '../test-support/scenarios/tools-workspace';
import { expect, test } from './support/fixtures';
import { send } from './support/plan-panel';

// A real MCP server process (test-support/mcp-server/stdio.ts) given to the web shell with
// --mcp-config; scripted Claude calls its echo tool.

const SERVER = resolve('test-support/mcp-server/stdio.ts');
const stdio = (...extra: string[]) => ({ command: process.execPath, args: ['--import', 'tsx', SERVER, ...extra] });

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  return page.getByRole('dialog');
}

test.describe('an MCP server from --mcp-config', () => {
  test.use({ scenario: toolsMcp, mcpConfig: { mcpServers: { test: stdio() } } });

  test("Settings shows it ready; Claude calls its tool after approval and the card names the server", async ({ app }) => {
    const settings = await openSettings(app);
    const status = settings.getByRole('list', { name: 'MCP server status', exact: true });
    await expect(status.getByRole('listitem').filter({ hasText: 'test' })).toContainText('ready, 7 tools');
    await settings.getByRole('button', { name: 'Cancel', exact: true }).click();

    await send(app, 'Ask the MCP server to echo something');
    const card = app.getByRole('alertdialog', { name: /Approve this MCP tool call/ });
    await expect(card).toContainText('from MCP server test');
    await expect(card).toContainText('Would call echo on MCP server "test"');
    await card.getByRole('button', { name: 'Approve', exact: true }).click();

    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('The MCP server echoed it back.')).toBeVisible();
    // The card names the tool once, with its server: not "test__echo test test: echo".
    const toolCard = log.getByRole('button', { name: /^test: echo done/ });
    await expect(toolCard).toBeVisible();
    await expect(toolCard).not.toContainText('test__echo');
    await expect(toolCard).toContainText('done');
    await toolCard.click();
    await expect(log.getByText('echo: hello from Claude')).toBeVisible();
  });
});

test.describe('MCP servers in Settings', () => {
  test.use({ mcpConfig: { mcpServers: { broken: stdio('--fail-at-start') } } });

  test('a failing server shows failed with its stderr; invalid JSON is refused; a new server starts', async ({ app }) => {
    let settings = await openSettings(app);
    const status = settings.getByRole('list', { name: 'MCP server status', exact: true });
    const broken = status.getByRole('listitem').filter({ hasText: 'broken' });
    await expect(broken).toHaveAttribute('data-status', 'failed');
    await expect(broken.getByLabel('broken error output')).toContainText('missing configuration, giving up');
    await broken.getByRole('button', { name: 'Restart broken', exact: true }).click();
    await expect(broken).toHaveAttribute('data-status', 'failed');

    const editor = settings.getByLabel('MCP servers JSON');
    await editor.fill('{"mcpServers": {"oops": ');
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(settings.getByRole('alert')).toContainText('MCP servers: the JSON is not valid');
    await editor.fill('{"mcpServers": {"oops": {"args": []}}}');
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(settings.getByRole('alert')).toContainText('"oops" should look like');
    await expect(settings).toBeVisible();

    await editor.fill(JSON.stringify({ mcpServers: { extra: { ...stdio(), trusted: true } } }));
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(app.getByRole('dialog')).toHaveCount(0);
    settings = await openSettings(app);
    await expect(settings.getByLabel('MCP servers JSON')).toHaveValue(/"extra"/);
    const extra = settings.getByRole('list', { name: 'MCP server status', exact: true }).getByRole('listitem').filter({ hasText: 'extra' });
    await expect(extra).toContainText('ready, 7 tools');
  });
});

import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { focusInfo, tabUntil } from './support/keyboard';

// Settings' MCP server form against the web shell: a real MCP server process
// (test-support/mcp-server/stdio.ts) added, edited and removed by the form, no JSON typed.

const SERVER = resolve('test-support/mcp-server/stdio.ts');

async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  return page.getByRole('dialog', { name: 'Settings', exact: true });
}
const row = (settings: Locator, name: string) => settings.getByRole('list', { name: 'MCP server status', exact: true }).getByRole('listitem').filter({ hasText: name });

test('an MCP server added from the keyboard, edited, refused a bad URL and removed; axe clean', async ({ app }) => {
  const settings = await openSettings(app);
  const focusedIs = (name: string) => async () => (await focusInfo(app)).name.includes(name);

  // Added with the keyboard only: Tab to the button, Enter, type the fields, Tab to Save server.
  const toAdd = await tabUntil(app, focusedIs('Add MCP server'), 120);
  expect(toAdd.missing).toEqual([]);
  await app.keyboard.press('Enter');
  const form = settings.getByRole('group', { name: 'Add MCP server', exact: true });
  await expect(form.getByRole('textbox', { name: 'Server name', exact: true })).toBeFocused();
  await app.keyboard.type('probe');
  await app.keyboard.press('Tab'); // the kind: Local command is chosen already
  await expect(form.getByRole('radio', { name: 'Local command', exact: true })).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'Command', exact: true })).toBeFocused();
  await app.keyboard.type(process.execPath);
  await app.keyboard.press('Tab');
  await app.keyboard.type(`--import\ntsx\n${SERVER}`); // Enter in Arguments starts the next argument
  await app.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'Environment', exact: true })).toBeFocused();
  await app.keyboard.type('PROBE_MODE=form test');
  await tabUntil(app, focusedIs('Save server'), 4);
  await app.keyboard.press('Enter');

  await expect(form).toHaveCount(0);
  await expect(row(settings, 'probe')).toContainText('ready, 7 tools');
  const json = settings.getByLabel('MCP servers JSON');
  const saved = () => json.inputValue().then((text) => (JSON.parse(text) as { mcpServers: Record<string, unknown> }).mcpServers);
  expect(await saved()).toEqual({ probe: { command: process.execPath, args: ['--import', 'tsx', SERVER], env: { PROBE_MODE: 'form test' } } });

  // Edited: one more argument (the server then offers one more tool); it reconnects.
  await row(settings, 'probe').getByRole('button', { name: 'Edit server probe', exact: true }).click();
  const edit = settings.getByRole('group', { name: 'Edit server probe', exact: true });
  await expect(edit.getByRole('textbox', { name: 'Command', exact: true })).toHaveValue(process.execPath);
  const args = edit.getByRole('textbox', { name: 'Arguments', exact: true });
  await args.fill(`${await args.inputValue()}\n--env-tool`);
  await edit.getByRole('button', { name: 'Save server', exact: true }).click();
  await expect(row(settings, 'probe')).toContainText('ready, 8 tools');
  expect(await saved()).toMatchObject({ probe: { args: ['--import', 'tsx', SERVER, '--env-tool'] } });

  // Refused: a URL that is not http(s), in words beside the field; nothing changes.
  await row(settings, 'probe').getByRole('button', { name: 'Edit server probe', exact: true }).click();
  await edit.getByRole('radio', { name: 'Remote URL', exact: true }).check();
  const url = edit.getByRole('textbox', { name: 'URL', exact: true });
  await url.fill('ftp://example.com/mcp');
  await edit.getByRole('button', { name: 'Save server', exact: true }).click();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  const describedBy = (await url.getAttribute('aria-describedby'))!.split(' ');
  await expect(app.locator(`[id="${describedBy[1]}"]`)).toHaveText(/http:\/\/ or https:\/\//);
  await expect(url).toBeFocused();
  await expectAccessibleInBothSchemes(app, 'MCP server form with a refused URL');
  await app.keyboard.press('Escape'); // closes the form, not Settings
  await expect(edit).toHaveCount(0);
  await expect(settings).toBeVisible();
  expect(await saved()).toMatchObject({ probe: { command: process.execPath } });
  await expect(row(settings, 'probe')).toContainText('ready, 8 tools');

  // Removed, after a question.
  await row(settings, 'probe').getByRole('button', { name: 'Remove server probe', exact: true }).click();
  const ask = app.getByRole('alertdialog', { name: 'Remove server probe?', exact: true });
  await expectAccessibleInBothSchemes(app, 'Remove server question');
  await ask.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(row(settings, 'probe')).toHaveCount(0);
  expect(await saved()).toEqual({});

  // Saved in main: Settings opened again shows the same (empty) servers.
  await settings.getByRole('button', { name: 'Cancel', exact: true }).click();
  const again = await openSettings(app);
  await expect(again.getByLabel('MCP servers JSON')).toHaveValue(/"mcpServers": \{\}/);
});

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
  return page.getByRole('dialog', { name: 'Settings' });
}
const row = (settings: Locator, name: string) => settings.getByRole('list', { name: 'MCP server status' }).getByRole('listitem').filter({ hasText: name });

test('an MCP server added from the keyboard, edited, refused a bad URL and removed; axe clean', async ({ app }) => {
  const settings = await openSettings(app);
  const focusedIs = (name: string) => async () => (await focusInfo(app)).name.includes(name);

  // Added with the keyboard only: Tab to the button, Enter, type the fields, Tab to Save server.
  const toAdd = await tabUntil(app, focusedIs('Add MCP server'), 120);
  expect(toAdd.missing).toEqual([]);
  await app.keyboard.press('Enter');
  const form = settings.getByRole('group', { name: 'Add MCP server' });
  await expect(form.getByRole('textbox', { name: 'Server name' })).toBeFocused();
  await app.keyboard.type('probe');
  await app.keyboard.press('Tab'); // the kind: Local command is chosen already
  await expect(form.getByRole('radio', { name: 'Local command' })).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'Command' })).toBeFocused();
  await app.keyboard.type(process.execPath);
  await app.keyboard.press('Tab');
  await app.keyboard.type(`--import\ntsx\n${SERVER}`); // Enter in Arguments starts the next argument
  await app.keyboard.press('Tab');
  await expect(form.getByRole('textbox', { name: 'Environment' })).toBeFocused();
  await app.keyboard.type('PROBE_MODE=form test');
  await tabUntil(app, focusedIs('Save server'), 4);
  await app.keyboard.press('Enter');

  await expect(form).toHaveCount(0);
  await expect(row(settings, 'probe')).toContainText('ready, 7 tools');
  const json = settings.getByLabel('MCP servers JSON');
  const saved = () => json.inputValue().then((text) => (JSON.parse(text) as { mcpServers: Record<string, unknown> }).mcpServers);
  expect(await saved()).toEqual({ probe: { command: process.execPath, args: ['--import', 'tsx', SERVER], env: { PROBE_MODE: 'form test' } } });

  // Edited: one more argument (the server then offers one more tool); it reconnects.
  await row(settings, 'probe').getByRole('button', { name: 'Edit server probe' }).click();
  const edit = settings.getByRole('group', { name: 'Edit server probe' });
  await expect(edit.getByRole('textbox', { name: 'Command' })).toHaveValue(process.execPath);
  const args = edit.getByRole('textbox', { name: 'Arguments' });
  await args.fill(`${await args.inputValue()}\n--env-tool`);
  await edit.getByRole('button', { name: 'Save server' }).click();
  await expect(row(settings, 'probe')).toContainText('ready, 8 tools');
  expect(await saved()).toMatchObject({ probe: { args: ['--import', 'tsx', SERVER, '--env-tool'] } });

  // Refused: a URL that is not http(s), in words beside the field; nothing changes.
  await row(settings, 'probe').getByRole('button', { name: 'Edit server probe' }).click();
  await edit.getByRole('radio', { name: 'Remote URL' }).check();
  const url = edit.getByRole('textbox', { name: 'URL' });
  await url.fill('ftp://example.com/mcp');
  await edit.getByRole('button', { name: 'Save server' }).click();
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
  await row(settings, 'probe').getByRole('button', { name: 'Remove server probe' }).click();
  const ask = app.getByRole('alertdialog', { name: 'Remove server probe?' });
  await expectAccessibleInBothSchemes(app, 'Remove server question');
  await ask.getByRole('button', { name: 'Remove' }).click();
  await expect(row(settings, 'probe')).toHaveCount(0);
  expect(await saved()).toEqual({});

  // Saved in main: Settings opened again shows the same (empty) servers.
  await settings.getByRole('button', { name: 'Cancel' }).click();
  const again = await openSettings(app);
  await expect(again.getByLabel('MCP servers JSON')).toHaveValue(/"mcpServers": \{\}/);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './support/fixtures';

test.describe('settings', () => {
  test('the fields are labelled, bad values are refused clearly, good ones are kept', async ({ app, shell }) => {
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = app.getByRole('dialog');
    for (const label of ['API key', 'Model', 'Agentic mode', 'Planning style', 'Max retries']) {
      await expect(dialog.getByLabel(label, { exact: true })).toBeVisible();
    }
    // The key field never shows the key, only where it comes from.
    await expect(dialog.getByLabel('API key', { exact: true })).toHaveValue('');

    await dialog.getByLabel('Max retries').fill('99');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText(/max ?retries/i);
    // Nothing was saved.
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(app.getByRole('dialog').getByLabel('Max retries')).toHaveValue('2');

    await app.getByRole('dialog').getByLabel('Max retries').fill('4');
    await app.getByRole('dialog').getByLabel('Planning style').selectOption('checklist');
    await app.getByRole('dialog').getByLabel('Agentic mode').uncheck();
    await app.getByRole('dialog').getByRole('button', { name: 'Save', exact: true }).click();
    await expect(app.getByRole('dialog')).toHaveCount(0);

    // Kept in main (settings.json) and shown again after a reload.
    const saved = JSON.parse(readFileSync(join(shell.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ maxRetries: 4, planningStyle: 'checklist', agenticMode: false });
    await app.reload();
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    await expect(app.getByRole('dialog').getByLabel('Max retries')).toHaveValue('4');
    await expect(app.getByRole('dialog').getByLabel('Planning style')).toHaveValue('checklist');
    await expect(app.getByRole('dialog').getByLabel('Agentic mode')).not.toBeChecked();
  });

  test('Escape closes the dialog and focus returns to Settings', async ({ app }) => {
    const button = app.getByRole('button', { name: 'Settings', exact: true });
    await button.click();
    await expect(app.getByRole('dialog')).toBeVisible();
    await app.keyboard.press('Escape');
    await expect(app.getByRole('dialog')).toHaveCount(0);
    await expect(button).toBeFocused();
  });
});

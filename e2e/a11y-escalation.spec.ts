import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationSkip } from '../test-support/scenarios/recovery-escalation';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/recovery-fixtures';
import { planPanel, send } from './support/plan-panel';

// The escalation prompt (a step failed past maxRetries) under axe, light and dark, at its step
// in the open panel and in the collapsed panel's header area.
test.use({
  settingsFile: { autoApproveEdits: true, retryDelayMs: 0, maxRetries: 2 },
  workspaceFiles: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
  scenario: { ...recoveryEscalationSkip, gated: true },
});

test.describe.configure({ timeout: 120_000 });

test('the escalation prompt, in the open and the collapsed plan panel', async ({ app, scripted }) => {
  await send(app, 'Tidy notes.txt');
  await scripted.release(5); // create, start 1, three failing edits
  const dialog = app.getByRole('alertdialog', { name: /needs your attention/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveCount(3);
  await expectAccessibleInBothSchemes(app, 'escalation');
  await planPanel(app).header.click();
  await expect(planPanel(app).header).toHaveAttribute('aria-expanded', 'false');
  await expect(dialog).toBeVisible();
  await expectAccessibleInBothSchemes(app, 'escalation, panel collapsed');
});

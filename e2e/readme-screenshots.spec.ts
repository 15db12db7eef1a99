import { copyFileSync, mkdirSync } from 'node:fs';
import { plansShowcase } from '../test-support/scenarios/plans-showcase';
import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationSkip } from '../test-support/scenarios/recovery-escalation';
import { expect, test } from './support/recovery-fixtures';
import { expectProgress, planPanel, send } from './support/plan-panel';

// The README's pictures come from the real UI at 1280x800, with workspace folders named as a
// user's would be (no test temp-folder names). Run with UPDATE_SCREENSHOTS=1 to refresh docs/.
const publish = (path: string, name: string) => {
  if (!process.env.UPDATE_SCREENSHOTS) return;
  mkdirSync('docs', { recursive: true });
  copyFileSync(path, `docs/${name}`);
};

test.describe('README screenshots', () => {
  test.describe('plan', () => {
    test.use({ scenario: { ...plansShowcase, gated: true }, workspaceName: 'settings-page' });

    test('a plan mid-run', async ({ app, scripted }, info) => {
      await send(app, 'Add a dark mode toggle to the settings page, and remember the choice.');
      await scripted.release(6); // create, start 1, note, complete 1, start 2, complete 2
      await expectProgress(app, 2, 5);
      await scripted.release(2); // add step 6, start it
      await expectProgress(app, 2, 6);
      await expect(app.getByRole('region', { name: 'Task plan', exact: true }).getByRole('listitem').filter({ hasText: 'Make icons follow' })).toHaveAttribute(
        'data-status',
        'in_progress',
      );
      const path = info.outputPath('screenshot.png');
      await app.screenshot({ path });
      publish(path, 'screenshot.png');
    });
  });

  test.describe('escalation', () => {
    // Step 1's edit keeps failing (recovery-escalation scenario): the third failure asks the user.
    test.use({
      scenario: { ...recoveryEscalationSkip, gated: true },
      settingsFile: { autoApproveEdits: true, retryDelayMs: 0, maxRetries: 2 },
      workspaceFiles: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
      workspaceName: 'notes',
    });

    test('a step that needs the user', async ({ app, scripted }, info) => {
      await send(app, 'Tidy notes.txt');
      await scripted.release(5); // create, start step 1, three failing edits
      const panel = planPanel(app);
      // The whole question is in view at 1280x800, above the steps, buttons included.
      const dialog = panel.region.getByRole('alertdialog', { name: /needs your attention/ });
      await expect(panel.step('Fix the greeting typo')).toContainText('needs your answer');
      await expect(dialog.getByRole('button', { name: 'Abort plan', exact: true })).toBeInViewport({ ratio: 1 });
      await expect(dialog.getByRole('listitem')).toHaveCount(3);
      await dialog.getByRole('textbox', { name: 'Guidance', exact: true }).fill('The file says "Hello wrld": replace exactly that.');
      const path = info.outputPath('escalation.png');
      await app.screenshot({ path });
      publish(path, 'escalation.png');
    });
  });
});

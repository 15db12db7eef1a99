import { copyFileSync, mkdirSync } from 'node:fs';
import { plansShowcase } from '../test-support/scenarios/plans-showcase';
import { expect, test } from './support/fixtures';
import { expectProgress, send } from './support/plan-panel';

// The README's pictures come from the real UI. Run with UPDATE_SCREENSHOTS=1 to refresh docs/.
const publish = (path: string, name: string) => {
  if (!process.env.UPDATE_SCREENSHOTS) return;
  mkdirSync('docs', { recursive: true });
  copyFileSync(path, `docs/${name}`);
};

test.describe('README screenshots', () => {
  test.use({ scenario: { ...plansShowcase, gated: true } });

  test('a plan mid-run', async ({ app, scripted }, info) => {
    await send(app, 'Add a dark mode toggle to the settings page, and remember the choice.');
    await scripted.release(6); // create, start 1, note, complete 1, start 2, complete 2
    await expectProgress(app, 2, 5);
    await scripted.release(2); // add step 6, start it
    await expectProgress(app, 2, 6);
    await expect(app.getByRole('region', { name: 'Task plan' }).getByRole('listitem').filter({ hasText: 'Make icons follow' })).toHaveAttribute(
      'data-status',
      'in_progress',
    );
    const path = info.outputPath('screenshot.png');
    await app.screenshot({ path });
    publish(path, 'screenshot.png');
  });
});

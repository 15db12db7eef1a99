import { readFileSync } from 'node:fs';
import { plansStructured } from '../test-support/scenarios/plans-structured';
import { expect, test } from './support/fixtures';
import { expectProgress, planPanel, send } from './support/plan-panel';

test.describe('Export plan', () => {
  test.use({ scenario: { ...plansStructured, gated: true } });

  test('saves a structured plan as Markdown in its own shape, every status marked', async ({ app, scripted }) => {
    await send(app, 'Create a 3x3 structural grid');
    await scripted.release(3); // create, start 1, complete 1
    await expectProgress(app, 1, 3);
    const download = app.waitForEvent('download');
    await planPanel(app).region.getByRole('button', { name: 'Export plan', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^create-3x3-structural-grid.*-plan\.md$/);
    const markdown = readFileSync((await file.path())!, 'utf8');
    expect(markdown).toContain('# Plan: Create 3x3 structural grid');
    expect(markdown).toContain('- [x] **1. Create vertical grid lines A, B, C');
    expect(markdown).toContain('- [ ] **3. Verify grid layout** — pending');
    expect(markdown).toContain('## Verification approach');
  });
});

import { plansStructured } from '../test-support/scenarios/plans-structured';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectProgress, planPanel, send } from './support/plan-panel';
import { conversation } from './support/transcript';

// Issue 23 polish: a short chat with a plan showed a blank gap (half the window) between the
// conversation and the plan panel below it. The conversation sits on the panel, as it does once
// it is long enough to scroll.

test.use({ scenario: { ...plansStructured, gated: true } });

test('a short conversation sits just above the plan panel, with no blank gap between them', async ({ app, scripted }) => {
  await send(app, 'Create a structural grid with 3 gridlines in each direction at 25 ft spacing');
  await scripted.release(); // create_plan
  await expectProgress(app, 0, 3);
  const lastLine = conversation(app).getByText('Created plan: 3 steps');
  await expect(lastLine).toBeVisible();
  for (const width of [400, 1280]) {
    await app.setViewportSize({ width, height: 800 });
    const panelTop = (await planPanel(app).region.boundingBox())!.y;
    const line = (await lastLine.boundingBox())!;
    const gap = panelTop - (line.y + line.height);
    expect(gap, `px between the conversation's last line and the plan panel at ${width} px`).toBeLessThanOrEqual(32);
    expect(gap, `the last line is above the panel at ${width} px`).toBeGreaterThanOrEqual(0);
  }
  // The first message is still there to read, above.
  await expect(conversation(app).getByText('Create a structural grid with 3 gridlines in each direction at 25 ft spacing', { exact: true })).toBeVisible();
  await expectAccessibleInBothSchemes(app, 'a short chat with its plan');
});

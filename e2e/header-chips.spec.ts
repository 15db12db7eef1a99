import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { send } from './support/plan-panel';

// The header's chips (folder, model, cost) read whole at the widths a laptop window takes
// (issue 23: they were cut to "w…" at 800 px); the chat's title keeps its row.

test('at 800, 1024 and 1280 px the folder, model and cost chips are whole and the title is on the first row', async ({ app }) => {
  await send(app, 'A title that is long enough to want the whole header for itself');
  await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText(/You said/)).toBeVisible();
  const header = app.locator('header.header');
  await expect(header).toContainText(/\$\d+\.\d\d|<\$0\.01/);
  for (const width of [800, 1024, 1280]) {
    await app.setViewportSize({ width, height: 800 });
    const chips = await header.locator('.header-chip').evaluateAll((els) =>
      els.map((el) => ({ text: el.textContent ?? '', cut: el.scrollWidth > el.clientWidth + 1 })),
    );
    expect(chips.length, `chips at ${width} px`).toBeGreaterThanOrEqual(3);
    expect(chips.filter((c) => c.cut).map((c) => c.text), `chips cut at ${width} px`).toEqual([]);
    const title = await app.getByRole('heading', { level: 1 }).boundingBox();
    const settings = await app.getByRole('button', { name: 'Settings', exact: true }).boundingBox();
    expect(title!.width, `title width at ${width} px`).toBeGreaterThan(150);
    expect(Math.abs(title!.y + title!.height / 2 - (settings!.y + settings!.height / 2)), `title beside Settings at ${width} px`).toBeLessThan(8);
  }
  await expectAccessibleInBothSchemes(app, 'header at 1280 px');
});

import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Whether an element is wholly visible to the user right now: inside the window, and not cut off
 * by a scrolling ancestor (the point at each corner and the centre hits the element itself).
 * Playwright's toBeInViewport counts a button hidden below a panel's own scroll area as in view.
 */
export async function expectFullyInView(locator: Locator, what: string): Promise<void> {
  await expect(locator).toBeVisible();
  await expect
    .poll(
      () =>
        locator.evaluate((el) => {
          const r = el.getBoundingClientRect();
          if (r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight) {
            return `outside the window: ${JSON.stringify({ top: r.top, bottom: r.bottom, left: r.left, right: r.right })}`;
          }
          // The middle of each edge (corners may be rounded off, and hit testing honours that) and the centre.
          const inset = 1.5;
          const [cx, cy] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
          const points: Array<[number, number]> = [
            [cx, r.top + inset],
            [cx, r.bottom - inset],
            [r.left + inset, cy],
            [r.right - inset, cy],
            [cx, cy],
          ];
          for (const [x, y] of points) {
            const hit = document.elementFromPoint(x, y);
            if (!hit || !(hit === el || el.contains(hit))) return `covered or clipped at (${Math.round(x)}, ${Math.round(y)}) by ${hit?.className || hit?.tagName}`;
          }
          return 'in view';
        }),
      { message: `${what} is fully in view` },
    )
    .toBe('in view');
}

/** The page never scrolls sideways: nothing is wider than the window. */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  expect(widths.page, `${what}: page ${widths.page} px wide in a ${widths.window} px window`).toBeLessThanOrEqual(widths.window);
}

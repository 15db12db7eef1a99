import { expect, type Locator, type Page } from '@playwright/test';

/** The Conversation log. */
export function conversation(page: Page): Locator {
  return page.getByRole('log', { name: 'Conversation', exact: true });
}

/** How far (px) the log's view is above its end: 0 when the last reply's end is shown. */
export function distanceFromEnd(log: Locator): Promise<number> {
  return log.evaluate((el) => Math.max(0, el.scrollHeight - el.scrollTop - el.clientHeight));
}

/** Waits until the log's view is at its end (within a sub-pixel rounding). */
export async function expectAtEnd(log: Locator, what: string): Promise<void> {
  await expect.poll(() => distanceFromEnd(log), { message: `${what}: the view is at the end of the conversation` }).toBeLessThanOrEqual(4);
}

/**
 * Goes to the first message the way a person does: Home, and again while older pages load above
 * (each page that comes in keeps the view where it was, so the top moves away once more).
 */
export async function scrollLogToTop(page: Page): Promise<void> {
  const log = conversation(page);
  await log.focus();
  await expect(async () => {
    await page.keyboard.press('Home');
    await expect(log.getByText('Loading earlier messages…')).toHaveCount(0);
    expect(await log.evaluate((el) => el.scrollTop), 'the view stays at the top: nothing older came in').toBe(0);
  }, 'the top of the conversation is reached').toPass();
}

/**
 * The transcript is virtualised: rows far from the view are not in the page. Finds `target` the
 * way a person does, from the top of the log with Page Down, and leaves it in view.
 */
export async function scrollLogTo(page: Page, target: Locator, maxPages = 400): Promise<void> {
  const log = conversation(page);
  await scrollLogToTop(page);
  for (let i = 0; i < maxPages; i++) {
    if ((await target.count()) > 0) {
      // The row can leave the page between finding it and scrolling to it (the view was still
      // settling); then it is simply looked for again.
      const shown = await target
        .first()
        .scrollIntoViewIfNeeded({ timeout: 2_000 })
        .then(() => true, () => false);
      if (shown) return;
      continue;
    }
    const before = await log.evaluate((el) => el.scrollTop);
    await page.keyboard.press('PageDown');
    // Wait for the page to move (or the end to be reached) before looking again.
    await expect.poll(async () => (await log.evaluate((el) => el.scrollTop)) !== before || (await distanceFromEnd(log)) <= 4).toBe(true);
    // Page Down scrolls smoothly, over several frames, and the virtualiser draws each frame's rows
    // after it: look only once the view has come to rest, or the next Page Down can carry a row
    // past before it was ever looked for.
    await viewAtRest(log);
    if ((await distanceFromEnd(log)) <= 4 && (await target.count()) === 0) break;
  }
  await expect(target.first(), 'found by scrolling the conversation from its top').toBeVisible();
}

/** Resolves once the log's scroll position has stayed the same over two drawn frames. */
async function viewAtRest(log: Locator): Promise<void> {
  await expect
    .poll(() =>
      log.evaluate(
        (el) =>
          new Promise<boolean>((resolve) => {
            const top = el.scrollTop;
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(el.scrollTop === top)));
          }),
      ),
    )
    .toBe(true);
}

import type { Page } from '@playwright/test';

/**
 * Frame intervals (requestAnimationFrame gaps, ms) in the page from now until the returned stop
 * is called: how smooth the page was while the benchmark drove it.
 */
export async function frameIntervals(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __watching: boolean };
    w.__frames = [];
    w.__watching = true;
    const tick = (t: number) => {
      w.__frames.push(t);
      if (w.__watching) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __watching: boolean };
      w.__watching = false;
      return w.__frames.slice(1).map((t, i) => t - w.__frames[i]!);
    });
}

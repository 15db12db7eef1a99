import type { Locator, Page } from '@playwright/test';
import { pageNow } from './browser';
import { frameIntervals } from './frames';
import { sleep } from './stats';

/**
 * Scrolls `log` up by mouse wheel as a person would (−800 px every 30 ms, the pointer over it)
 * until `atTop` holds (asked every 10 wheels) or `maxWheels` were turned. Returns the frame
 * intervals meanwhile and the page time it started, for long tasks since then.
 */
export async function wheelToTop(page: Page, log: Locator, atTop: () => Promise<boolean>, maxWheels: number): Promise<{ wheels: number; reachedTop: boolean; gaps: number[]; from: number }> {
  const box = (await log.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const from = await pageNow(page);
  const stopFrames = await frameIntervals(page);
  let wheels = 0;
  let reachedTop = false;
  while (wheels < maxWheels && !reachedTop) {
    for (let i = 0; i < 10; i++, wheels++) {
      await page.mouse.wheel(0, -800);
      await sleep(30);
    }
    reachedTop = await atTop();
  }
  return { wheels, reachedTop, gaps: await stopFrames(), from };
}

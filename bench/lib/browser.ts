import { chromium, type Browser, type Page } from '@playwright/test';
import config from '../../playwright.config';
import { findChromium } from '../../scripts/chromium-path.mjs';

/**
 * Debian's Chromium with the same flags the e2e tests use (playwright.config.ts). Playwright
 * never downloads a browser here.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('No Chromium found: install Debian\'s chromium or set WAYPOINT_CHROMIUM=/path/to/chromium.');
  const args = config.use?.launchOptions?.args ?? ['--headless', '--no-sandbox'];
  return chromium.launch({ executablePath, headless: true, args });
}

export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: config.use?.viewport ?? { width: 1280, height: 800 } });
  // tsx (esbuild keepNames) wraps named functions in __name(); functions we send to the page need it.
  await context.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((fn) => fn);' });
  return context.newPage();
}

/**
 * Records main-thread long tasks (> 50 ms) from the first script on: call before page.goto.
 * Read them with `longTasksSince(page, t)`.
 */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** Long tasks that started at or after `since` (page performance.now() ms). */
export function longTasksSince(page: Page, since: number): Promise<{ start: number; duration: number }[]> {
  return page.evaluate((t) => (window as unknown as { __longTasks: { start: number; duration: number }[] }).__longTasks.filter((e) => e.start >= t), since);
}

export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** CPU the renderer spent (CDP Performance metrics, seconds): whole tasks and script alone. */
export async function cpuMeter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    return { task: get('TaskDuration'), script: get('ScriptDuration') };
  };
  return { read };
}

/**
 * Offset between the page's wall clock (timeOrigin + now) and Node's, from the tightest of a few
 * round trips: subtract it from page times to compare them with Node times. It is exact to within
 * half that round trip (`rtt`), whichever way the trip was slower.
 */
export async function clockOffset(page: Page): Promise<{ offset: number; rtt: number }> {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 15; i++) {
    const before = performance.timeOrigin + performance.now();
    const inPage = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = performance.timeOrigin + performance.now();
    if (after - before < best.rtt) best = { rtt: after - before, offset: inPage - (before + after) / 2 };
  }
  return best;
}

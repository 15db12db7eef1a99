import type { Page } from '@playwright/test';

/**
 * In-page probes for the working-chat benchmark. Each is installed before the app's scripts run
 * (or evaluated once the page is up) and reads only what a person would see.
 */

/**
 * From the first script of every load: checks once per animation frame whether the last reply
 * (an `article[aria-label="Claude"]` whose text holds `marker`) is on screen inside the
 * Conversation log and the Message box is enabled; the first such frame's time (ms since
 * navigation start) is `window.__readyAt`.
 */
export async function installReadyProbe(page: Page, marker: string): Promise<void> {
  await page.addInitScript((text: string) => {
    const w = window as unknown as { __readyAt: number | null };
    w.__readyAt = null;
    const check = () => {
      const log = document.querySelector('[role="log"][aria-label="Conversation"]');
      const box = document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement | null;
      const replies = log?.querySelectorAll('article[aria-label="Claude"]');
      const last = replies?.[replies.length - 1];
      if (log && box && !box.disabled && last && (last.textContent ?? '').includes(text)) {
        const a = last.getBoundingClientRect();
        const b = log.getBoundingClientRect();
        // The marker ends the reply: its bottom edge must be inside the log's visible box.
        if (a.bottom <= b.bottom + 1 && a.bottom > b.top) {
          w.__readyAt = performance.now();
          return;
        }
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, marker);
}

export function readyAt(page: Page, timeoutMs: number): Promise<number> {
  return page
    .waitForFunction(() => (window as unknown as { __readyAt: number | null }).__readyAt, undefined, { timeout: timeoutMs, polling: 100 })
    .then((handle) => handle.jsonValue() as Promise<number>);
}

/**
 * Key → paint for every key typed from now on: the keydown event's timestamp to the task after
 * the next animation frame (the frame that shows the character has been produced by then).
 */
export async function watchKeys(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __keys: number[] };
    w.__keys = [];
    document.addEventListener(
      'keydown',
      (event) => {
        const at = event.timeStamp;
        requestAnimationFrame(() => setTimeout(() => w.__keys.push(performance.now() - at), 0));
      },
      { capture: true },
    );
  });
  return () => page.evaluate(() => (window as unknown as { __keys: number[] }).__keys);
}

/** DOM elements, and the renderer's JS heap after a forced GC (CDP), in MB. */
export async function domAndHeap(page: Page): Promise<{ nodes: number; heapMb: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    return { nodes, heapMb: usedSize / 1024 / 1024 };
  } finally {
    await cdp.detach();
  }
}

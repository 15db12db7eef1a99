import type { Page } from '@playwright/test';
import { frameIntervals } from './lib/frames';

/**
 * Arms the page before the chat is clicked: notes the click time, and resolves once the last
 * transcript entry shows `marker` (commit) and once a frame has been produced after it (paint).
 */
export async function armOpenTimer(page: Page, marker: string): Promise<void> {
  await page.evaluate((text) => {
    const w = window as unknown as { __clickAt: number; __opened: Promise<{ committed: number; painted: number }> };
    w.__clickAt = 0;
    document.addEventListener('click', () => (w.__clickAt = performance.now()), { capture: true, once: true });
    w.__opened = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const last = document.querySelector('[role="log"][aria-label="Conversation"] .transcript-inner')?.lastElementChild;
        if (!last || !(last.textContent ?? '').includes(text)) return;
        observer.disconnect();
        const committed = performance.now();
        requestAnimationFrame(() => setTimeout(() => resolve({ committed, painted: performance.now() }), 0));
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  }, marker);
}

export function openTimes(page: Page): Promise<{ commitMs: number; paintMs: number; nodes: number }> {
  return page.evaluate(async () => {
    const w = window as unknown as { __clickAt: number; __opened: Promise<{ committed: number; painted: number }> };
    const { committed, painted } = await w.__opened;
    return { commitMs: committed - w.__clickAt, paintMs: painted - w.__clickAt, nodes: document.getElementsByTagName('*').length };
  });
}

/** Frame gaps from now until the returned stop is called: how many frames, the worst gap, gaps over 50 ms. */
export async function watchFrames(page: Page): Promise<() => Promise<{ frames: number; worstGapMs: number; gapsOver50: number }>> {
  const stop = await frameIntervals(page);
  return async () => {
    const gaps = await stop();
    return { frames: gaps.length + 1, worstGapMs: Math.max(0, ...gaps), gapsOver50: gaps.filter((g) => g > 50).length };
  };
}

import type { Page } from '@playwright/test';

/** Ctrl on Linux/Windows; the app accepts ⌘ too, but the test browser runs on Linux. */
export const MOD = 'Control';

/** What has focus now, and whether it shows a focus ring (its own, or the composer box's). */
export async function focusInfo(page: Page): Promise<{ name: string; ring: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: 'body', ring: false };
    const visible = (node: Element) => {
      const s = getComputedStyle(node);
      return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1;
    };
    const box = el.closest('.composer-box');
    const name = `${el.tagName.toLowerCase()}[${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? ''}]`;
    return { name, ring: visible(el) || (box !== null && visible(box)) };
  });
}

/**
 * Tabs forward until `done` says so (at most `max` presses), checking each stop shows a visible
 * focus ring; returns every stop and those without a ring, for the test to expect none.
 */
export async function tabUntil(page: Page, done: () => Promise<boolean>, max = 40): Promise<{ visited: string[]; missing: string[] }> {
  const visited: string[] = [];
  const missing: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const info = await focusInfo(page);
    visited.push(info.name);
    if (!info.ring) missing.push(info.name);
    if (await done()) return { visited, missing };
  }
  throw new Error(`Focus did not get there in ${max} Tab presses (now on ${(await focusInfo(page)).name}).`);
}

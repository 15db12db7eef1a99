import type { Page } from '@playwright/test';

export interface DomChurn {
  /** Elements inserted into the page (each inserted subtree counted whole). */
  added: number;
  removed: number;
  /** The inserted elements by tag, most first (the first few). */
  byTag: string;
}

/**
 * Counts the elements the page builds and drops from now on (a MutationObserver on the document):
 * a count, which the machine's load does not change, for what a frame's work is made of.
 */
export async function watchDomChurn(page: Page): Promise<() => Promise<DomChurn>> {
  await page.evaluate(() => {
    const w = window as unknown as { __churn: { added: number; removed: number; tags: Record<string, number> } };
    const churn: { added: number; removed: number; tags: Record<string, number> } = { added: 0, removed: 0, tags: {} };
    w.__churn = churn;
    const each = (node: Node, visit: (el: Element) => void) => {
      if (!(node instanceof Element)) return;
      visit(node);
      for (const el of node.querySelectorAll('*')) visit(el);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes)
          each(node, (el) => {
            churn.added++;
            churn.tags[el.tagName] = (churn.tags[el.tagName] ?? 0) + 1;
          });
        for (const node of record.removedNodes) each(node, () => churn.removed++);
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return async () => {
    const { added, removed, tags } = await page.evaluate(() => (window as unknown as { __churn: { added: number; removed: number; tags: Record<string, number> } }).__churn);
    const byTag = Object.entries(tags)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([tag, n]) => `${tag.toLowerCase()} ${n}`)
      .join(', ');
    return { added, removed, byTag };
  };
}

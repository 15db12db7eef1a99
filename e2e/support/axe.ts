import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.1 A and AA: the level the issue asks for (no best-practice rules). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type Scheme = 'light' | 'dark';

/** One line per failing node, so a failure says exactly what to fix and where. */
function describe(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}): ${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ') ?? v.help}`),
  );
}

/** Runs axe on the page as it is now, in the given colour scheme, and expects no violations. */
export async function expectAccessible(page: Page, screen: string, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  // Let transitions (the chevron, the progress bar) settle so colours are measured at rest.
  await page.waitForTimeout(350);
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(describe(results.violations), `axe violations on "${screen}" (${scheme})`).toEqual([]);
  // Guard against a vacuous pass: axe must have actually checked something on this screen.
  expect(results.passes.length, `axe checked nothing on "${screen}"`).toBeGreaterThan(0);
}

/** The same screen in light and dark. */
export async function expectAccessibleInBothSchemes(page: Page, screen: string): Promise<void> {
  await expectAccessible(page, screen, 'light');
  await expectAccessible(page, screen, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
}

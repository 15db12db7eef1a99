import type { Page } from '@playwright/test';
import { plansShowcase } from '../test-support/scenarios/plans-showcase';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectProgress, planPanel, send } from './support/plan-panel';

// The transcript stays readable: a huge paste collapses, plan changes fold into one line each
// run, steps are numbered by position with Claude's id at hand, and streamed Markdown never
// flashes its raw markers. Axe runs take seconds on a busy machine.
test.describe.configure({ timeout: 120_000 });

/**
 * Puts a long text in the message box the way a paste lands: one input event with the whole
 * text. (Chromium's editing commands, which fill() and insertText() use, take some 20 s for
 * 200 KB of lines in a plain textarea on this machine: that cost is the browser's, not ours.)
 */
async function putText(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message', exact: true }).evaluate((box, value) => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(box, value);
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

test.describe('a long paste and a plan at work', () => {
  test.use({ scenario: { ...plansShowcase, gated: true } });

  test('collapse to one line each, expand on request, and number steps as the panel does, with Claude\'s id in the detail', async ({ app, scripted }) => {
    const paste = `Add a dark mode toggle. The build log:\n${'2025-01-01 12:00:00 INFO compiled one more module of the app\n'.repeat(3400)}END OF LOG`;
    expect(paste.length).toBeGreaterThan(200_000);
    await putText(app, paste);
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    await scripted.release(8); // plan; steps 1-2 done with a note; step 6 added after 2 and started
    await expectProgress(app, 2, 6)
    const log = app.getByRole('log', { name: 'Conversation', exact: true });

    // 5. The paste is a short bubble with "Show all", not a 60,000 px one.
    const you = log.getByRole('article', { name: 'You', exact: true });
    expect((await you.boundingBox())!.height).toBeLessThan(400);
    const showAll = you.getByRole('button', { name: 'Show all', exact: true });
    await expect(showAll).toHaveAttribute('aria-expanded', 'false');
    await expect(you).not.toContainText('END OF LOG');

    // 10. Eight plan changes are three lines (split only by Claude's words), each a disclosure.
    await expect(log.getByText(/^Updated plan:/)).toHaveCount(0);
    const runs = log.getByRole('button', { name: /^Plan updated \d+ times/ });
    await expect(runs).toHaveCount(3);
    const latest = runs.last();
    await expect(latest).toHaveText('Plan updated 2 times · latest: step 3 “Make icons follow the theme colour” started');
    await expect(latest).toHaveAttribute('aria-expanded', 'false');
    await latest.click();
    await expect(latest).toHaveAttribute('aria-expanded', 'true');
    await expect(log.getByText('Updated plan: step 3 “Make icons follow the theme colour” added')).toBeVisible();

    // 11. Step 6 was added after step 2: the panel numbers it 3 and its detail gives the id 6.
    const panel = planPanel(app);
    await expect(panel.steps.locator('.plan-step-label')).toHaveText(['1.', '2.', '3.', '4.', '5.', '6.']);
    const added = panel.step('Make icons follow the theme colour');
    await expect(added).toContainText('3.');
    await added.getByRole('button', { name: 'Details for step 3', exact: true }).click();
    await expect(added.getByRole('definition').first()).toHaveText('6');
    await expect(added).toContainText('Step id');
    await expect(panel.step('Add the toggle to the settings page')).toContainText('after 2');

    await expectAccessibleInBothSchemes(app, 'collapsed paste, open plan-change run, open step detail');

    // Up to the message the way a person goes there (Home on the log), so the view stops following
    // the end while Claude still works; a scroll made by the test alone would not tell it so.
    // Both buttons from the keyboard: the virtualiser turns pointer events off while the log
    // scrolls (Home's smooth scroll, then a click's own scroll to its button), and CI lost a click
    // that way twice, once on each button, each time leaving the message as it was.
    await log.focus();
    await app.keyboard.press('Home');
    await showAll.focus();
    await app.keyboard.press('Enter');
    await expect(you.getByRole('button', { name: 'Show less', exact: true })).toHaveAttribute('aria-expanded', 'true');
    await expect(you).toContainText('END OF LOG');
    await you.getByRole('button', { name: 'Show less', exact: true }).focus();
    await app.keyboard.press('Enter');
    await expect(you.getByRole('button', { name: 'Show all', exact: true })).toBeInViewport();
    expect((await you.boundingBox())!.height).toBeLessThan(400);
  });
});

test.describe('a reply as it streams', () => {
  const REPLY = 'Here is **Sensible advice** for you: run `npm test` first.';
  test.use({ scenario: { name: 'streamed-markdown', turns: [{ kind: 'text', text: REPLY, chunkChars: 2, delayMs: 120 }] } });

  test('never shows raw ** or ` while they are open, and the caret ends the line it types', async ({ app }) => {
    // Record every text the reply shows, from the first frame to the last.
    await app.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const reply = document.querySelector('.msg--assistant');
        if (reply) seen.push(reply.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await send(app, 'Advice please');
    const reply = app.getByRole('article', { name: 'Claude', exact: true });
    await expect(reply).toHaveAttribute('aria-busy', 'true');
    await expect.poll(async () => ((await reply.textContent()) ?? '').length).toBeGreaterThan(12);
    // Mid-stream: one short line of text, the caret drawn after it (not on a line of its own).
    const midway = await reply.evaluate((el) => {
      const last = el.querySelector('.markdown')?.lastElementChild as HTMLElement | null;
      const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
      return {
        busy: el.getAttribute('aria-busy'),
        caret: last ? getComputedStyle(last, '::after').content : 'none',
        lines: el.getBoundingClientRect().height / lineHeight,
      };
    });
    expect(midway.busy, 'still streaming (2 characters every 120 ms)').toBe('true');
    expect(midway.caret).not.toBe('none');
    expect(midway.lines).toBeLessThan(1.6);
    await expect(reply).toHaveAttribute('aria-busy', 'false');
    await expect(reply.locator('strong')).toHaveText('Sensible advice');
    await expect(reply.locator('code')).toHaveText('npm test');
    const seen = await app.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.filter((text) => /\*|`/.test(text))).toEqual([]);
  });
});

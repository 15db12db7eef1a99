import type { Locator, Page } from '@playwright/test';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { MOD } from './support/keyboard';
import { expectFullyInView } from './support/in-view';
import { openNewChat, send } from './support/plan-panel';
import { expectAtEnd } from './support/transcript';

// Find in chat (issue 15 item 3), as a person uses it: a chat of many turns, a word from the
// first turn found with the web shell's shortcut, each match brought into view and marked with
// the CSS Custom Highlight API, and Escape giving the keyboard back. The scripted Claude echoes
// each message ("You said: …"), so every message's words are in its reply too.

const TURNS = 16;
const FILLER = 'Some more words about the weather, the garden and the plans for the weekend, so each turn takes room.';
/** The word is in turn 1 (twice) and turn 9 (once); with the echoes, 6 matches. */
const message = (n: number) =>
  n === 1 ? 'Turn 1: the marmalade recipe needs oranges, sugar and patience. Marmalade keeps.' : n === 9 ? `Turn 9: the marmalade is ready. ${FILLER}` : `Turn ${n}: ${FILLER}`;

/** The row (data-row-key) that shows a user message starting with this text. */
const userRow = (log: Locator, start: string) => log.locator('[data-row-key]').filter({ hasText: start }).first();

/** What the current find highlight marks, and whether it lies inside the transcript's visible area. */
function currentMark(page: Page) {
  return page.evaluate(() => {
    const mark = CSS.highlights.get('find-current');
    const range = mark ? [...(mark as unknown as Set<Range>)][0] : undefined;
    if (!range) return null;
    const log = document.querySelector('[role="log"][aria-label="Conversation"]')!.getBoundingClientRect();
    const r = range.getBoundingClientRect();
    const row = range.startContainer.parentElement?.closest('[data-row-key]');
    return {
      text: range.toString(),
      row: row?.textContent?.slice(0, 30) ?? null,
      inView: r.height > 0 && r.top >= log.top && r.bottom <= log.bottom,
      all: CSS.highlights.get('find-match')?.size ?? 0,
    };
  });
}

test('finds a word from the first turn of a long chat, steps through the matches, shows and marks each, and Escape closes', async ({ app }) => {
  test.setTimeout(120_000);
  const log = app.getByRole('log', { name: 'Conversation', exact: true });
  for (let n = 1; n <= TURNS; n++) {
    await send(app, message(n));
    await expect(log.getByText(`You said: Turn ${n}:`)).toBeVisible();
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
  }
  const first = userRow(log, 'Turn 1: the marmalade');
  const ninth = userRow(log, 'Turn 9: the marmalade');
  await expect(first).not.toBeInViewport();

  // The web shell's shortcut (the browser keeps Ctrl+F), from the message box.
  const messageBox = app.getByRole('textbox', { name: 'Message', exact: true });
  await messageBox.focus();
  await app.keyboard.press(`${MOD}+Shift+F`);
  const bar = app.getByRole('search', { name: 'Find in chat', exact: true });
  const box = bar.getByRole('textbox', { name: 'Find in chat', exact: true });
  const status = bar.getByRole('status');
  await expect(box).toBeFocused();
  await app.keyboard.type('marmalade');
  await expect(status).toHaveText('1 of 6');
  await expect(first).toBeInViewport();
  await expect.poll(() => currentMark(app)).toMatchObject({ text: 'marmalade', row: expect.stringContaining('Turn 1: the marmalade'), inView: true });
  // Every match on screen is marked too (the current one again, distinctly).
  expect((await currentMark(app))?.all).toBeGreaterThanOrEqual(2);

  // Enter: the second match, in the same message ("Marmalade keeps").
  await app.keyboard.press('Enter');
  await expect(status).toHaveText('2 of 6');
  await expect.poll(async () => (await currentMark(app))?.text).toBe('Marmalade');

  // The buttons: on to turn 9's message, which comes into view marked.
  const next = bar.getByRole('button', { name: 'Next match', exact: true });
  await next.click();
  await next.click();
  await expect(status).toHaveText('4 of 6');
  await next.click();
  await expect(status).toHaveText('5 of 6');
  await expect(ninth).toBeInViewport();
  await expect(first).not.toBeInViewport();
  await expect.poll(() => currentMark(app)).toMatchObject({ text: 'marmalade', row: expect.stringContaining('Turn 9: the marmalade'), inView: true });

  // Previous, and Shift+Enter in the box, go back: to the first turn's echo, then to its message.
  await bar.getByRole('button', { name: 'Previous match', exact: true }).click();
  await expect(status).toHaveText('4 of 6');
  await box.focus();
  await app.keyboard.press('Shift+Enter');
  await app.keyboard.press('Shift+Enter');
  await expect(status).toHaveText('2 of 6');
  await expect(first).toBeInViewport();
  await expect.poll(() => currentMark(app)).toMatchObject({ text: 'Marmalade', row: expect.stringContaining('Turn 1: the marmalade'), inView: true });

  await expectAccessibleInBothSchemes(app, 'find in chat, open with a match');

  // Escape closes the bar, clears the marks and gives the focus back to the message box.
  await box.focus();
  await app.keyboard.press('Escape');
  await expect(bar).toHaveCount(0);
  await expect(messageBox).toBeFocused();
  expect(await app.evaluate(() => [CSS.highlights.has('find-match'), CSS.highlights.has('find-current')])).toEqual([false, false]);

  // The header button opens it again; a word that is nowhere says so.
  await app.getByRole('button', { name: 'Find in chat', exact: true }).click();
  await expect(box).toBeFocused();
  await app.keyboard.type('quince');
  await expect(status).toHaveText('No matches');

  // Back at the first turn's match, closed, another chat and back: the chat opens at its end, not at
  // the match find showed last.
  await box.fill('marmalade');
  await expect(status).toHaveText('1 of 6');
  await expect(first).toBeInViewport();
  await app.keyboard.press('Escape');
  await openNewChat(app);
  await app.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('button', { name: /^Turn 1: the marmalade/ }).click();
  await expectFullyInView(log.getByText(`You said: Turn ${TURNS}:`), 'the last reply on coming back to the chat');
  await expectAtEnd(log, 'coming back to the chat');
  await expect(first).not.toBeInViewport();
});

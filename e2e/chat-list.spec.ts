import type { Locator, Page } from '@playwright/test';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { openNewChat, send } from './support/plan-panel';

// The chat list as a person uses it every day (issue 23): long titles readable at every window
// width, one Tab stop per chat with its actions on the arrow keys, a skip link to the
// conversation, and chats pinned to the top that stay there after a restart.

const LONG = 'Plan the quarterly budget review for the northern region offices';

test.use({
  scenario: {
    name: 'plan-then-echo',
    onExhausted: 'echo',
    turns: [
      {
        kind: 'tool_use',
        text: "I'll plan it.",
        calls: [
          {
            name: 'create_plan',
            input: {
              goal: 'Budget review',
              steps: [
                { step_number: 1, description: 'Gather the numbers' },
                { step_number: 2, description: 'Write the review' },
              ],
            },
          },
        ],
      },
      { kind: 'text', text: 'The plan is ready.' },
    ],
  },
});

const chatList = (page: Page) => page.getByRole('navigation', { name: 'Chats', exact: true });
const chatItem = (page: Page, title: RegExp) => chatList(page).getByRole('listitem').filter({ hasText: title });

/** Where the title and the badge of a chat's row are drawn, with the mouse away (no actions shown). */
async function rowBoxes(row: Locator) {
  return row.evaluate((li) => {
    const box = (el: Element | null) => (el ? el.getBoundingClientRect().toJSON() as DOMRect : null);
    const link = li.querySelector('.chat-link')!;
    const style = getComputedStyle(link);
    const inner = link.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { inner, title: box(li.querySelector('.chat-title'))!, badge: box(li.querySelector('.chat-progress')) };
  });
}

test('a long title gets its row’s whole width and the badge wraps below, at 400, 800, 1280 and 1920 px', async ({ app }) => {
  await send(app, LONG);
  await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('The plan is ready.')).toBeVisible();
  const row = chatItem(app, /quarterly budget/);
  await expect(row).toContainText('0/2');
  for (const width of [1920, 1280, 800, 400]) {
    await app.setViewportSize({ width, height: 800 });
    if (width <= 700) await app.getByRole('button', { name: 'Chats', exact: true }).click();
    await expect(row).toBeVisible();
    await app.mouse.move(width - 5, 795); // far from the list: the row's actions are not shown
    const { inner, title, badge } = await rowBoxes(row);
    expect(title.width, `title width at ${width} px`).toBeGreaterThanOrEqual(inner - 1);
    expect(badge, `badge at ${width} px`).not.toBeNull();
    expect(badge!.top, `badge below the title at ${width} px`).toBeGreaterThanOrEqual(title.bottom - 1);
  }
  await expectAccessibleInBothSchemes(app, 'chat list drawer with a long title and a badge');
});

test('each chat is one Tab stop, its actions are on the arrow keys, and a skip link comes first', async ({ app }) => {
  for (const [i, text] of ['First chat about bread', 'Second chat about cheese', 'Third chat about wine'].entries()) {
    if (i > 0) await openNewChat(app); // the first message goes to the chat the app opened with
    await send(app, text);
    // The reply ends before the next chat starts, so the list's order (newest first) is known.
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText(i === 0 ? 'The plan is ready.' : `You said: ${text}`)).toBeVisible();
  }
  await expect(chatList(app).getByRole('listitem')).toHaveCount(3);

  // The skip link is the first Tab stop of the page and goes to the conversation.
  const skip = app.getByRole('link', { name: 'Skip to conversation', exact: true });
  const firstStop = await app.evaluate(() => {
    const stops = [...document.querySelectorAll<HTMLElement>('a[href], button, input, textarea, select, [tabindex]')];
    return stops.find((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled)?.textContent;
  });
  expect(firstStop).toBe('Skip to conversation');
  await expect(skip).not.toBeInViewport(); // out of sight until focused
  await app.getByRole('button', { name: 'New chat', exact: true }).focus();
  await app.keyboard.press('Shift+Tab');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await expectAccessibleInBothSchemes(app, 'skip link focused');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('log', { name: 'Conversation', exact: true })).toBeFocused();

  // From the search box, Tab crosses the list: one stop per chat.
  await chatList(app).getByRole('searchbox', { name: 'Search chats', exact: true }).focus();
  const stops: string[] = [];
  for (let i = 0; i < 12; i++) {
    await app.keyboard.press('Tab');
    const where = await app.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return el.closest('.chat-list') ? (el.getAttribute('aria-label') ?? el.querySelector('.chat-title')?.textContent ?? '') : null;
    });
    if (where === null) break;
    stops.push(where);
  }
  expect(stops).toEqual(['Third chat about wine', 'Second chat about cheese', 'First chat about bread']);

  // The arrow keys reach a chat's actions and come back; Up and Down go between chats.
  const second = chatItem(app, /Second chat/);
  await second.getByRole('button', { name: /Second chat/ }).focus();
  await app.keyboard.press('ArrowRight');
  await expect(second.getByRole('button', { name: 'Pin chat', exact: true })).toBeFocused();
  await app.keyboard.press('ArrowRight');
  await expect(second.getByRole('button', { name: 'Rename chat', exact: true })).toBeFocused();
  await app.keyboard.press('End');
  await expect(second.getByRole('button', { name: 'Delete chat', exact: true })).toBeFocused();
  await app.keyboard.press('Home');
  await expect(second.getByRole('button', { name: /Second chat/ })).toBeFocused();
  await app.keyboard.press('ArrowLeft');
  await expect(second.getByRole('button', { name: /Second chat/ })).toBeFocused();
  await app.keyboard.press('ArrowDown');
  await expect(chatItem(app, /First chat/).getByRole('button', { name: /First chat/ })).toBeFocused();
  await app.keyboard.press('ArrowUp');
  await app.keyboard.press('ArrowUp');
  await expect(chatItem(app, /Third chat/).getByRole('button', { name: /Third chat/ })).toBeFocused();
  // Enter on an action does it: Rename shows the title box.
  await app.keyboard.press('ArrowRight');
  await app.keyboard.press('ArrowRight');
  await app.keyboard.press('Enter');
  await expect(chatList(app).getByRole('textbox', { name: 'Chat title', exact: true })).toBeFocused();
  await app.keyboard.press('Escape');
  await expectAccessibleInBothSchemes(app, 'chat list with actions focused');

  // The shortcuts list tells these keys.
  await app.keyboard.press('Control+/');
  const shortcuts = app.getByRole('dialog', { name: 'Keyboard shortcuts', exact: true });
  const row = (name: RegExp) => shortcuts.getByRole('row').filter({ has: app.getByRole('rowheader', { name }) });
  await expect(row(/^A chat’s actions/)).toContainText('Right arrow or Left arrow');
  await expect(row(/^The chat above or below/)).toContainText('Up arrow or Down arrow');
});

test('a pinned chat comes first, says "Unpin chat", and stays pinned after a restart', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    for (const [i, text] of ['Oldest chat about maps', 'Middle chat about tides', 'Newest chat about stars'].entries()) {
      if (i > 0) await openNewChat(page);
      await send(page, text);
      await expect(log.getByText(`You said: ${text}`)).toBeVisible();
    }
    const titles = () => chatList(page).getByRole('listitem').locator('.chat-title');
    await expect(titles()).toHaveText(['Newest chat about stars', 'Middle chat about tides', 'Oldest chat about maps']);

    // Pinned with the keyboard: focus stays on the chat's button, which now says "Unpin chat".
    const oldest = chatItem(page, /Oldest chat/);
    await oldest.getByRole('button', { name: 'Pin chat', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(titles()).toHaveText(['Oldest chat about maps', 'Newest chat about stars', 'Middle chat about tides']);
    await expect(oldest.getByRole('button', { name: 'Unpin chat', exact: true })).toBeFocused();
    await expect(oldest.getByRole('button', { name: 'Pin chat', exact: true })).toHaveCount(0);

    // A newer message elsewhere does not push a pinned chat down.
    await chatItem(page, /Middle chat/).getByRole('button', { name: /Middle chat/ }).click();
    await send(page, 'More about tides');
    await expect(log.getByText('You said: More about tides')).toBeVisible();
    await expect(titles()).toHaveText(['Oldest chat about maps', 'Middle chat about tides', 'Newest chat about stars']);

    const next = await shell.restart('quit');
    await page.goto(next.url);
    await expect(titles()).toHaveText(['Oldest chat about maps', 'Middle chat about tides', 'Newest chat about stars']);
    await expect(chatItem(page, /Oldest chat/).getByRole('button', { name: 'Unpin chat', exact: true })).toBeVisible();

    // Unpinned, it goes back to its place by date.
    await chatItem(page, /Oldest chat/).getByRole('button', { name: 'Unpin chat', exact: true }).click();
    await expect(titles()).toHaveText(['Middle chat about tides', 'Newest chat about stars', 'Oldest chat about maps']);
    const last = await shell.restart('quit');
    await page.goto(last.url);
    await expect(titles()).toHaveText(['Middle chat about tides', 'Newest chat about stars', 'Oldest chat about maps']);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

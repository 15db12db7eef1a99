import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { send } from './support/plan-panel';
import { startWebShell } from './support/web-shell';

// A long chat list (issue 22): from 150 chats on the sidebar draws only the rows near the view
// (VirtualChatList.tsx). As a person uses it, it is still one list of chats, one Tab stop per
// chat, and the arrow keys go on past the rows first drawn.

const COPIES = 240;

test('a list of 241 chats draws only the rows near the view, and Tab and the arrow keys still cross it chat by chat', async ({ page }) => {
  // Two shell starts, 240 logs written, and a few dozen key presses each checked on the page.
  test.setTimeout(180_000);
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-many-chats-'));
  try {
    const first = await startWebShell({ baseURL: scripted.url, dataDir });
    await page.goto(first.url);
    await send(page, 'Template chat about rivers');
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('You said: Template chat about rivers')).toBeVisible();
    await first.stop();

    // Copies of that chat's log, each with its own id and title (what the app reads as its own).
    const sessions = join(dataDir, 'sessions');
    const id = readdirSync(sessions).find((d) => !d.includes('.'))!;
    const log = readFileSync(join(sessions, id, 'events.jsonl'), 'utf8');
    for (let n = 0; n < COPIES; n++) {
      const copy = `copy-${String(n).padStart(4, '0')}`;
      mkdirSync(join(sessions, copy));
      writeFileSync(join(sessions, copy, 'events.jsonl'), log.replaceAll(id, copy).replaceAll('Template chat', `Copy ${n} chat`), { mode: 0o600 });
    }
    rmSync(join(sessions, 'index.json'), { force: true });

    const second = await startWebShell({ baseURL: scripted.url, dataDir });
    try {
      await page.goto(second.url);
      const nav = page.getByRole('navigation', { name: 'Chats', exact: true });
      const items = nav.getByRole('list').getByRole('listitem');
      await expect(items.first()).toBeVisible();
      const drawn = await items.count();
      expect(drawn).toBeGreaterThan(5);
      expect(drawn).toBeLessThan(COPIES / 2);

      // The arrow keys: each Down moves to another chat, in view, well past the rows first drawn.
      await items.first().locator('.chat-link').focus();
      const seen = new Set<string>();
      for (let i = 0; i < drawn + 10; i++) {
        await page.keyboard.press('ArrowDown');
        const focused = page.locator('.chat-list .chat-link:focus');
        await expect(focused).toBeInViewport();
        seen.add((await focused.textContent())!);
      }
      expect(seen.size).toBe(drawn + 10);
      // Up comes back through the same chats.
      await page.keyboard.press('ArrowUp');
      await expect(page.locator('.chat-list .chat-link:focus')).toBeInViewport();

      // Tab: one stop per chat, the next chat each time.
      const before = (await page.locator('.chat-list .chat-link:focus').textContent())!;
      const tabbed = new Set<string>([before]);
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        const focused = page.locator('.chat-list .chat-link:focus');
        await expect(focused).toHaveCount(1);
        tabbed.add((await focused.textContent())!);
      }
      expect(tabbed.size).toBe(6);
      // Scrolled far from the chat holding focus: the rows there are drawn, and the focused chat
      // stays drawn and focused (focus would otherwise fall to the page).
      const holding = (await page.locator('.chat-list .chat-link:focus').textContent())!;
      await nav.locator('[data-virtual-viewport]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(nav.getByRole('button', { name: /^Copy 0 chat about rivers/ })).toBeVisible();
      await expect(page.locator('.chat-list .chat-link:focus')).toHaveText(holding);
      await expectAccessibleInBothSchemes(page, 'a list of 241 chats, drawn near the view');
    } finally {
      await second.stop();
    }
  } finally {
    await scripted.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

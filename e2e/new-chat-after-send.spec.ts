import type { Page } from '@playwright/test';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expect, test } from './support/fixtures';
import { startWebShell } from './support/web-shell';

// From an empty window (a fresh data folder): type, Send, and New chat in the same moment. Main
// reuses an empty chat for New chat, and the chat the Send goes to looked empty until its message
// was in, so the press was lost now and then (the window stayed on the first chat). Every press
// must show a new, empty chat, and the message must go once, to the chat it was typed in.
test.describe.configure({ timeout: 240_000 });

const ROUNDS = 10;

/** Send, then New chat: in one task (the same moment), or the next click as soon as the first is done. */
async function sendThenNewChat(page: Page, together: boolean): Promise<void> {
  const send = page.getByRole('button', { name: 'Send', exact: true });
  const newChat = page.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('button', { name: 'New chat', exact: true });
  if (together) {
    const buttons = [await send.elementHandle(), await newChat.elementHandle()];
    await page.evaluate((both) => both.forEach((button) => (button as HTMLButtonElement).click()), buttons);
  } else {
    await send.click();
    await newChat.click();
  }
}

test(`New chat pressed right after Send from an empty window is a new chat, ${ROUNDS} times in a row`, async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'new-chat-after-send', turns: [], onExhausted: 'echo' } });
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const shell = await startWebShell({ baseURL: scripted.url }); // a fresh data folder: no chats yet
      try {
        await page.goto(shell.url);
        const chats = page.getByRole('navigation', { name: 'Chats', exact: true });
        const box = page.getByRole('textbox', { name: 'Message', exact: true });
        const heading = page.getByRole('heading', { level: 1 });
        const log = page.getByRole('log', { name: 'Conversation', exact: true });
        await expect(chats.getByRole('listitem')).toHaveCount(1);
        const text = `Tidy the notes, round ${round}`;
        await box.fill(text);
        await sendThenNewChat(page, round % 2 === 1);

        // The message's chat is answered and titled; the window stays on the new, empty chat.
        const first = chats.getByRole('button', { name: text, exact: true });
        await expect(first, `round ${round}: the first chat is listed under its message`).toBeVisible();
        await expect(chats.getByRole('listitem'), `round ${round}: two chats`).toHaveCount(2);
        await expect(chats.getByRole('button', { name: 'New chat (empty)', exact: true }), `round ${round}: the new chat is listed`).toBeVisible();
        await expect(heading, `round ${round}: the header shows the new chat`).toHaveText('New chat');
        await expect(box).toHaveValue('');
        await expect(log.getByText(text)).toHaveCount(0);

        // The message went once, to the chat it was typed in.
        await first.click();
        await expect(heading).toHaveText(text);
        await expect(log.getByText(`You said: ${text}`, { exact: true })).toBeVisible();
        await expect(log.getByText(text, { exact: true })).toHaveCount(1);
        await expect(chats.getByRole('listitem')).toHaveCount(2);
      } finally {
        await shell.stop();
      }
    }
  } finally {
    await scripted.close();
  }
  // Each message reached Claude once (a title request, if any, is not a message of the chat).
  const asked = (round: number) => scripted.requests.filter((r) => JSON.stringify((r.body as { messages?: unknown }).messages ?? []).includes(`round ${round}"`)).length;
  expect(Array.from({ length: ROUNDS }, (_, i) => asked(i + 1) >= 1)).toEqual(Array(ROUNDS).fill(true));
});

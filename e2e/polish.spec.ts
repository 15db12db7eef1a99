import sharp from 'sharp';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { openNewChat, send } from './support/plan-panel';

// Issue 23's polish list, as a person sees it: the reply's tools in one even row, the drop
// target saying what a drop does, an attached image's whole name, a search snippet that shows
// its match and one "No chats match." (docs/contract.md §5).

const log = (page: Page) => page.getByRole('log', { name: 'Conversation', exact: true });

/** Whether an element shows all its text: nothing cut off to the right or below. */
const notCut = (element: Locator) => element.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);

test('"Retry reply" sits in step with Copy and Copy as Markdown', async ({ app }) => {
  await send(app, 'Hello there');
  const reply = log(app).getByRole('article', { name: 'Claude', exact: true });
  await expect(reply.getByText('You said: Hello there')).toBeVisible();
  const box = async (name: string) => (await reply.getByRole('button', { name, exact: true }).boundingBox())!;
  const [copy, markdown, retry] = [await box('Copy'), await box('Copy as Markdown'), await box('Retry reply')];
  const gap = markdown.x - (copy.x + copy.width);
  expect(Math.abs(retry.x - (markdown.x + markdown.width) - gap)).toBeLessThanOrEqual(1);
  expect(Math.abs(retry.y - copy.y)).toBeLessThanOrEqual(1);
});

test('files dragged over the chat: the drop target says what dropping does', async ({ app }) => {
  const transfer = await app.evaluateHandle(() => {
    const t = new DataTransfer();
    t.items.add(new File(['hi'], 'notes.txt', { type: 'text/plain' }));
    return t;
  });
  await expect(app.getByText('Drop files to attach them to your message')).toHaveCount(0);
  await log(app).dispatchEvent('dragover', { dataTransfer: transfer });
  await expect(app.getByText('Drop files to attach them to your message')).toBeVisible();
  await log(app).dispatchEvent('drop', { dataTransfer: transfer });
  await expect(app.getByText('Drop files to attach them to your message')).toHaveCount(0);
  await expect(app.getByRole('button', { name: 'Remove notes.txt', exact: true })).toBeVisible();
});

test("an attached image's long name is shown whole, in the composer and in the sent message", async ({ app }) => {
  const name = 'Screenshot 2026-11-27 at 09.45.12 of the settings dialog (second try).png';
  const chooser = app.waitForEvent('filechooser');
  await app.getByRole('button', { name: 'Attach files', exact: true }).click();
  const buffer = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } }).png().toBuffer();
  await (await chooser).setFiles([{ name, mimeType: 'image/png', buffer }]);
  const chip = app.getByRole('list', { name: 'Attachments', exact: true }).getByText(name, { exact: true });
  await expect(chip).toBeVisible();
  expect(await notCut(chip)).toBe(true);
  await expect(app.getByRole('list', { name: 'Attachments', exact: true })).not.toContainText('uploading');
  await send(app, 'Here it is');
  const sent = log(app).getByRole('list', { name: 'Attached files', exact: true }).getByText(name, { exact: true });
  await expect(sent).toBeVisible();
  expect(await notCut(sent)).toBe(true);
});

test('chat search: the snippet shows its match with the words around it; no match is said once', async ({ app }) => {
  await send(app, 'We went through the release checklist and the changelog at length before we finally chose the zebra option for the icons.');
  await expect(log(app).getByText(/You said: We went through/)).toBeVisible();
  await openNewChat(app);
  const chats = app.getByRole('navigation', { name: 'Chats', exact: true });
  // The new chat is made and its message box has taken the focus before the search is typed.
  await expect(chats.getByRole('button', { name: 'New chat (empty)', exact: true })).toBeVisible();
  await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeFocused();
  const search = chats.getByRole('searchbox', { name: 'Search chats', exact: true });
  await search.fill('zebra');
  const results = chats.getByRole('list', { name: 'Search results', exact: true });
  const match = results.locator('mark', { hasText: 'zebra' });
  await expect(match).toBeVisible();
  const [shown, within] = [(await match.boundingBox())!, (await results.locator('.chat-snippet').boundingBox())!];
  expect(shown.x + shown.width).toBeLessThanOrEqual(within.x + within.width + 1);
  expect(shown.y + shown.height).toBeLessThanOrEqual(within.y + within.height + 1);

  await search.fill('no such words anywhere');
  await expect(chats.getByText('No chats match.')).toBeVisible();
  await expect(chats.getByRole('status')).toHaveText('No chats match.');
  await expect(chats.getByText(/chats? found/)).toHaveCount(0);
});

import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { send } from './support/plan-panel';

// The composer's chips and the replies' Copy buttons (issue 23): removing a chip with the
// keyboard leaves the focus where the person can go on, and every reply copies as plain text
// or as its Markdown source.

const MARKDOWN = [
  '## Shopping list',
  '',
  'Buy **fresh** bread and *soft* cheese, see [the shop](https://example.com/shop).',
  '',
  '- Milk',
  '- Eggs',
  '',
  '```js',
  'const total = 3;',
  '```',
].join('\n');

test.use({ scenario: { name: 'markdown-reply', onExhausted: 'echo', turns: [{ kind: 'text', text: MARKDOWN }] } });

test('removing a chip with the keyboard moves focus to the next chip, else the previous, else the message box', async ({ app }) => {
  const chooser = app.waitForEvent('filechooser');
  await app.getByRole('button', { name: 'Attach files', exact: true }).click();
  await (await chooser).setFiles(
    ['a.txt', 'b.txt', 'c.txt'].map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`text of ${name}`) })),
  );
  const chips = app.getByRole('list', { name: 'Attachments', exact: true });
  await expect(chips.getByRole('listitem')).toHaveCount(3);
  await expect(chips).not.toContainText('uploading');
  const remove = (name: string) => app.getByRole('button', { name: `Remove ${name}`, exact: true });

  await remove('b.txt').focus();
  await app.keyboard.press('Enter');
  await expect(remove('b.txt')).toHaveCount(0);
  await expect(remove('c.txt')).toBeFocused(); // the next chip
  await expectAccessibleInBothSchemes(app, 'composer with a chip focused');
  await app.keyboard.press('Space');
  await expect(remove('c.txt')).toHaveCount(0);
  await expect(remove('a.txt')).toBeFocused(); // no next one: the previous
  await app.keyboard.press('Enter');
  await expect(chips).toHaveCount(0);
  await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeFocused(); // none left
});

test('every reply copies as plain text with "Copy" and as its Markdown source with "Copy as Markdown"', async ({ app, context, shell }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(shell.url).origin });
  await send(app, 'What do I buy?');
  const log = app.getByRole('log', { name: 'Conversation', exact: true });
  await expect(log.getByRole('heading', { name: 'Shopping list', exact: true })).toBeVisible();
  await send(app, 'Thanks');
  await expect(log.getByText('You said: Thanks')).toBeVisible();

  const replies = log.getByRole('article', { name: 'Claude', exact: true });
  await expect(replies).toHaveCount(2);
  for (const reply of [replies.first(), replies.last()]) {
    await expect(reply.getByRole('button', { name: 'Copy', exact: true })).toHaveCount(1);
    await expect(reply.getByRole('button', { name: 'Copy as Markdown', exact: true })).toHaveCount(1);
  }
  const clipboard = () => app.evaluate(() => navigator.clipboard.readText());

  const first = replies.first();
  await first.getByRole('button', { name: 'Copy as Markdown', exact: true }).click();
  await expect.poll(clipboard).toBe(MARKDOWN);
  await first.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect
    .poll(clipboard)
    .toBe(['Shopping list', 'Buy fresh bread and soft cheese, see the shop.', 'Milk\nEggs', 'const total = 3;'].join('\n\n'));
  await expect(first.getByText('Copied', { exact: true })).toBeVisible();

  await replies.last().getByRole('button', { name: 'Copy', exact: true }).click();
  await expect.poll(clipboard).toBe('You said: Thanks');
  await expectAccessibleInBothSchemes(app, 'replies with Copy buttons');
});

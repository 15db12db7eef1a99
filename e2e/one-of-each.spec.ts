import { expect, test } from './support/fixtures';

// One h1 and one "New chat" button on the page (issue 23): the chat the app opens with is listed
// too, and its row must not be a second control of that exact name.

test('a fresh start has one h1 and one "New chat" button; the empty chat is listed under another name', async ({ app }) => {
  await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
  await expect(app.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await expect(app.getByRole('button', { name: 'New chat', exact: true })).toHaveCount(1);
  const chats = app.getByRole('navigation', { name: 'Chats', exact: true });
  await expect(chats.getByRole('listitem')).toHaveCount(1);
  await expect(chats.getByRole('listitem').getByRole('button', { name: 'New chat (empty)', exact: true })).toBeVisible();
  await expect(chats.getByRole('listitem')).toHaveText(/^New chat/); // what the eye sees is unchanged
});

test.describe('first run', () => {
  test.use({ apiKey: null });

  test('the welcome screen has one h1', async ({ app }) => {
    await expect(app.getByRole('heading', { name: 'Welcome to Waypoint', exact: true })).toBeVisible();
    await expect(app.getByRole('heading', { level: 1 })).toHaveCount(1);
  });
});

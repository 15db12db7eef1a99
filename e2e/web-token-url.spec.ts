import WebSocket from 'ws';
import { expectAccessibleInBothSchemes } from './support/axe';
import { test, expect } from './support/fixtures';

/**
 * The web shell's token and tabs, as a person meets them in Chromium. The token leaves the
 * address bar once the page has it (history, screenshots, a shared screen), and the tab keeps
 * working through a reload; the printed URL still opens a new tab. A tab past the shell's cap on
 * open tabs is told so, and gets in with Reload once another tab is closed.
 */
const message = (page: import('@playwright/test').Page) => page.getByRole('textbox', { name: 'Message', exact: true });

test('the token leaves the address bar; a reload still connects, and the printed URL opens a new tab', async ({ app, shell }) => {
  await expect(message(app)).toBeVisible();
  expect(new URL(app.url()).searchParams.has('token')).toBe(false);
  expect(await app.evaluate(() => window.location.href)).not.toContain('token');

  await app.reload();
  await expect(message(app)).toBeVisible();
  expect(new URL(app.url()).searchParams.has('token')).toBe(false);
  await message(app).fill('after a reload');
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByText('You said: after a reload')).toBeVisible();

  const other = await app.context().newPage();
  await other.goto(shell.url);
  await expect(message(other)).toBeVisible();
  expect(new URL(other.url()).searchParams.has('token')).toBe(false);

  // The address bar as it is now, without the token, is no key: a new tab from it is refused.
  const bare = await app.context().newPage();
  await bare.goto(app.url());
  await expect(bare.getByRole('alert').getByRole('heading', { name: 'This link is no longer valid', exact: true })).toBeVisible();
});

test('a tab past the cap on open tabs says so; with a tab closed, Reload gets it in', async ({ app, shell }) => {
  await expect(message(app)).toBeVisible(); // one place taken by this tab
  const url = new URL(shell.url);
  const token = url.searchParams.get('token')!;
  const others: WebSocket[] = [];
  // The other places, as 31 more tabs would take them.
  for (let i = 0; i < 31; i++) {
    const socket = new WebSocket(`ws://${url.host}/ws?token=${token}`, { origin: url.origin });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    others.push(socket);
  }
  try {
    const late = await app.context().newPage();
    await late.goto(shell.url);
    const alert = late.getByRole('alert');
    await expect(alert.getByRole('heading', { name: 'Too many Waypoint tabs are open', exact: true })).toBeVisible();
    await expect(alert).toContainText('Close a Waypoint tab you no longer use, then reload this one.');
    await expect(late.getByText(/Reconnecting/)).toHaveCount(0);
    await expectAccessibleInBothSchemes(late, 'too many tabs');
    // The tabs already open are not touched.
    await message(app).fill('still here');
    await app.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(app.getByText('You said: still here')).toBeVisible();

    const closed = new Promise((resolve) => others[0]!.once('close', resolve));
    others[0]!.close();
    await closed;
    await alert.getByRole('button', { name: 'Reload', exact: true }).click();
    await expect(message(late)).toBeVisible();
  } finally {
    for (const socket of others) socket.terminate();
  }
});

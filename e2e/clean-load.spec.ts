import { test, expect } from './support/fixtures';

// Opening the app logs nothing the browser calls an error (issue 23's CSP complaint on every load:
// frame-ancestors is only honoured in a header, and a <meta> carrying it makes Chromium complain).
test('the app loads without an error in the console', async ({ page, shell }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(shell.url);
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
  // A reload too: the complaint came on every load, not only the first.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

import type { Page } from '@playwright/test';
import { startOAuthMcpServer, type RunningOAuthMcpServer } from '../test-support/mcp-server/oauth-http';
import { expect, test as base } from './support/fixtures';

// A remote MCP server behind OAuth (test-support/mcp-server/oauth-http.ts, the MCP SDK's own
// auth router, approving at once) given to the web shell with --mcp-config. Real Chromium
// follows "Open sign-in page" through the authorization page back to Waypoint's loopback listener.

const test = base.extend<{ oauth: RunningOAuthMcpServer }>({
  // Playwright reads a fixture's dependencies from its first parameter: this one has none.
  // eslint-disable-next-line no-empty-pattern
  oauth: async ({}, use) => {
    const server = await startOAuthMcpServer();
    await use(server);
    await server.close();
  },
  mcpConfig: async ({ oauth }, use) => use({ mcpServers: { remote: { url: oauth.url } } }),
});

async function remoteRow(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog');
  return settings.getByRole('list', { name: 'MCP server status', exact: true }).getByRole('listitem').filter({ hasText: 'remote' });
}

/** "Sign in", then the link in a new tab: the tab lands on Waypoint's "You can close this tab". */
async function signIn(page: Page, row: Awaited<ReturnType<typeof remoteRow>>) {
  await row.getByRole('button', { name: 'Sign in', exact: true }).click();
  const link = row.getByRole('link', { name: 'Open sign-in page', exact: true });
  await expect(link).toBeVisible();
  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await expect(tab.getByText('You can close this tab.')).toBeVisible();
  await tab.close();
}

test('a remote server signs in from Settings; after its refresh token is revoked it says "Signed out" and signs in again', async ({ app, oauth }) => {
  const row = await remoteRow(app);
  await expect(row).toContainText('Sign-in needed');
  await signIn(app, row);
  await expect(row).toContainText('ready, 7 tools');
  await expect(row.getByRole('button', { name: 'Sign in', exact: true })).toHaveCount(0);

  oauth.revokeRefreshTokens();
  oauth.expireAccessTokens();
  await row.getByRole('button', { name: 'Restart remote', exact: true }).click();
  await expect(row).toContainText('Signed out');
  await signIn(app, row);
  await expect(row).toContainText('ready, 7 tools');
  expect(oauth.counts.authorizations).toBe(2);
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import type { McpServerState } from '../../../shared/mcp';
import type { ToolContext } from '../tool';
import { callTool } from '../define-tool';
import { startOAuthMcpServer, type RunningOAuthMcpServer } from '../../../../test-support/mcp-server/oauth-http';
import { startHttpMcpServer, type RunningHttpMcpServer } from '../../../../test-support/mcp-server/http';
import { completeSignInInBrowser } from '../../../../test-support/mcp-server/test-browser';
import { McpManager } from './mcp-manager';
import { McpTokenVault, type TokenSecretStore } from './oauth/token-vault';
import type { McpManagerOptions } from './mcp-state';

const ctx = (): ToolContext => ({ sessionId: 's', signal: new AbortController().signal, settings: defaultSettings() });

/** The vault's backing store, as the web shell's memory store holds it: what is stored is visible. */
class RecordingStore implements TokenSecretStore {
  value: string | null = null;
  load(): string | null {
    return this.value;
  }
  save(value: string | null): void {
    this.value = value;
  }
}

let server: RunningOAuthMcpServer;
let store: RecordingStore;
let managers: McpManager[];

beforeEach(async () => {
  server = await startOAuthMcpServer();
  store = new RecordingStore();
  managers = [];
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.dispose()));
  await server.close();
});

function managerFor(servers: Record<string, unknown>, options: Partial<McpManagerOptions['signIns']> = {}): McpManager {
  const manager = new McpManager(servers, { signIns: { vault: new McpTokenVault(store), ...options } });
  managers.push(manager);
  return manager;
}

/** Polls until `value` gives something truthy (the state a sign-in settles in). */
async function settled<T>(value: () => T | false | undefined | null | '', what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const got = value();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const stateOf = (manager: McpManager, name = 'remote'): McpServerState => manager.states().find((s) => s.name === name)!;

/** Presses "Sign in" and returns the page Settings would offer, once the state carries it. */
async function startSignIn(manager: McpManager, name = 'remote'): Promise<string> {
  expect(manager.signIn(name)).toBe(true);
  await settled(() => {
    const state = stateOf(manager, name);
    return (state.status === 'sign_in' && (state.signInUrl || state.error)) || state.status === 'ready';
  }, 'the sign-in page');
  const state = stateOf(manager, name);
  if (state.status !== 'sign_in' || !state.signInUrl) throw new Error(`no sign-in page: ${JSON.stringify(state)}`);
  return state.signInUrl;
}

async function signInThroughBrowser(manager: McpManager, name = 'remote'): Promise<{ status: number; body: string }> {
  const page = await startSignIn(manager, name);
  const answer = await completeSignInInBrowser(page);
  await manager.whenSignedIn();
  return answer;
}

describe('remote MCP sign-in (OAuth, the SDK against its own auth server)', () => {
  it('first connect asks for a sign-in; the browser completes it; the tools are listed and work', async () => {
    const manager = managerFor({ remote: { url: server.url } });
    const seen: string[] = [];
    manager.onDidChange((states) => seen.push(...states.map((st) => st.status)));
    await manager.start();
    expect(stateOf(manager)).toEqual({ name: 'remote', transport: 'http', status: 'sign_in', signedOut: false });
    // Turned away for want of a sign-in is not "failed" (no failure notice flashes in the app).
    expect(seen).not.toContain('failed');
    // A background connect registers nothing and opens nothing.
    expect(server.counts).toMatchObject({ registrations: 0, authorizations: 0 });

    const page = await startSignIn(manager);
    const url = new URL(page);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/waypoint\/oauth\/callback$/);
    const answer = await completeSignInInBrowser(page);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('You can close this tab');
    await manager.whenSignedIn();

    expect(stateOf(manager)).toMatchObject({ status: 'ready', toolCount: 7 });
    const add = manager.tools().find((t) => t.name === 'remote__add')!;
    const outcome = await callTool(add, { a: 40, b: 2 }, ctx());
    expect(outcome).toMatchObject({ ok: true, content: '42' });
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
    // The loopback listener is gone with the sign-in.
    await expect(fetch(new URL(url.searchParams.get('redirect_uri')!))).rejects.toThrow();
  });

  it('a restart reuses the stored tokens; an expired access token is refreshed silently', async () => {
    const first = managerFor({ remote: { url: server.url } });
    await first.start();
    await signInThroughBrowser(first);
    await first.dispose();

    const again = managerFor({ remote: { url: server.url } });
    await again.start();
    expect(stateOf(again)).toMatchObject({ status: 'ready', toolCount: 7 });
    expect(server.counts).toMatchObject({ registrations: 1, authorizations: 1, refreshes: 0 });

    server.expireAccessTokens();
    const echo = again.tools().find((t) => t.name === 'remote__echo')!;
    expect(await callTool(echo, { text: 'still here' }, ctx())).toMatchObject({ ok: true, content: 'echo: still here' });
    expect(server.counts.refreshes).toBe(1);
    expect(server.counts.authorizations).toBe(1);

    // And at the next start: the expired token is refreshed before the tools are listed.
    server.expireAccessTokens();
    const third = managerFor({ remote: { url: server.url } });
    await third.start();
    expect(stateOf(third)).toMatchObject({ status: 'ready' });
    expect(server.counts.refreshes).toBe(2);
  });

  it('a refused refresh token leaves the server "Signed out", not retried, others unaffected; signing in again works', async () => {
    const plain: RunningHttpMcpServer = await startHttpMcpServer();
    try {
      const first = managerFor({ remote: { url: server.url } });
      await first.start();
      await signInThroughBrowser(first);
      server.revokeRefreshTokens();
      server.expireAccessTokens();

      const echo = first.tools().find((t) => t.name === 'remote__echo')!;
      const refused = await callTool(echo, { text: 'x' }, ctx());
      expect(refused).toMatchObject({ ok: false, error: { kind: 'unavailable', message: 'MCP server "remote" is signed out. The user can sign in again in Settings.' } });
      expect(stateOf(first)).toEqual({ name: 'remote', transport: 'http', status: 'sign_in', signedOut: true });
      expect(await callTool(echo, { text: 'x' }, ctx())).toMatchObject({ ok: false, error: { kind: 'unavailable', message: 'MCP server "remote" is signed out. The user can sign in in Settings.' } });
      await first.dispose();

      const next = managerFor({ remote: { url: server.url }, plain: { url: plain.url } });
      await next.start();
      expect(stateOf(next)).toEqual({ name: 'remote', transport: 'http', status: 'sign_in', signedOut: true });
      expect(stateOf(next, 'plain')).toMatchObject({ status: 'ready' });
      const requestsBefore = server.counts.refreshes + server.counts.authorizations;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.counts.refreshes + server.counts.authorizations).toBe(requestsBefore);
      expect(stateOf(next).status).toBe('sign_in');

      await signInThroughBrowser(next);
      expect(stateOf(next)).toMatchObject({ status: 'ready', toolCount: 7 });
    } finally {
      await plain.close();
    }
  });

  const faults: Array<[string, Partial<RunningOAuthMcpServer['faults']> | 'wrongPort', RegExp]> = [
    ['access denied in the redirect', { denyAuthorization: true }, /^The server refused the sign-in \(access_denied\)\. Nothing was stored\.$/],
    ['token endpoint 400', { refuseCode: true }, /^The server refused to give tokens for the sign-in: invalid_grant: the authorization code was refused\. Nothing was stored\.$/],
    ['state mismatch', { wrongState: true }, /^The sign-in was refused: the browser came back with another sign-in's state/],
    ['redirect to another path', { wrongPath: true }, /^The sign-in was refused: the server sent the browser back to an unexpected address \(\/somewhere\/else\)\. Nothing was stored\.$/],
    ['redirect to another port', 'wrongPort', /^No sign-in came back within 2 s; nothing was stored\./],
    ['metadata missing', { metadata: 'missing' }, /^The server publishes no authorization server metadata .*oauth-authorization-server was not found\)/],
    ['an authorization page that is not a web page', { metadata: 'not-a-web-page' }, /^The server's authorization page is not a web address \(ms-settings:\), so Waypoint does not open it\. Nothing was stored\.$/],
    ['registration refused', { refuseRegistration: true }, /^The server's authorization server refused to register Waypoint: invalid_client_metadata: registration is closed on this server\. Nothing was stored\.$/],
  ];
  it.each(faults)('%s: refused with its message, nothing stored', async (_name, fault, message) => {
    server.faults = fault === 'wrongPort' ? { wrongPort: 9 } : fault;
    const manager = managerFor({ remote: { url: server.url } }, { timeoutMs: 2_000 });
    await manager.start();
    expect(stateOf(manager)).toMatchObject({ status: 'sign_in', signedOut: false });
    expect(manager.signIn('remote')).toBe(true);
    const page = await settled(() => {
      const state = stateOf(manager);
      return state.status === 'sign_in' && (state.signInUrl ?? state.error);
    }, 'the sign-in page or its refusal');
    if (page.startsWith('http')) await completeSignInInBrowser(page);
    await manager.whenSignedIn();
    const state = stateOf(manager);
    expect(state.status).toBe('sign_in');
    expect(state.status === 'sign_in' && state.error).toMatch(message);
    expect(store.value).toBeNull();
    expect(manager.tools()).toEqual([]);
  });

  it('malformed authorization server metadata is said in words, and nothing is stored', async () => {
    server.faults = { metadata: 'malformed' };
    const manager = managerFor({ remote: { url: server.url } });
    await manager.start();
    const state = stateOf(manager);
    expect(state).toMatchObject({ status: 'sign_in', signedOut: false });
    expect(state.status === 'sign_in' && state.error).toMatch(/^Could not read the server's sign-in metadata: it is malformed \(issuer: .*\)\. Nothing was stored\.$/);
    expect(store.value).toBeNull();
  });

  it('"Sign in" pressed again shows the same page; a restart ends the sign-in under way, and a new one works', async () => {
    const manager = managerFor({ remote: { url: server.url } });
    await manager.start();
    const page = await startSignIn(manager);
    expect(manager.signIn('remote')).toBe(true);
    expect(stateOf(manager)).toMatchObject({ status: 'sign_in', signInUrl: page });
    expect(server.counts.authorizations + server.counts.registrations).toBe(1);

    await manager.restart('remote');
    await manager.whenSignedIn();
    expect(stateOf(manager)).toEqual({ name: 'remote', transport: 'http', status: 'sign_in', signedOut: false });
    // The old page's answer finds no listener any more.
    const stale = await completeSignInInBrowser(page);
    expect(stale.status).toBe(0);
    expect(store.value).toBeNull();

    await signInThroughBrowser(manager);
    expect(stateOf(manager)).toMatchObject({ status: 'ready', toolCount: 7 });
  });

  it('a configured client_id is used as it is: no registration, and its refresh works', async () => {
    server.preRegisterClient('waypoint-by-hand', 'http://127.0.0.1/waypoint/oauth/callback');
    const manager = managerFor({ remote: { url: server.url, client_id: 'waypoint-by-hand' } });
    await manager.start();
    const page = await startSignIn(manager);
    expect(new URL(page).searchParams.get('client_id')).toBe('waypoint-by-hand');
    await completeSignInInBrowser(page);
    await manager.whenSignedIn();
    expect(stateOf(manager)).toMatchObject({ status: 'ready', toolCount: 7 });
    server.expireAccessTokens();
    await manager.restart('remote');
    expect(stateOf(manager)).toMatchObject({ status: 'ready' });
    expect(server.counts).toMatchObject({ registrations: 0, refreshes: 1 });
  });

  it('tokens are kept per server name and URL: a changed URL needs its own sign-in', async () => {
    const first = managerFor({ remote: { url: server.url } });
    await first.start();
    await signInThroughBrowser(first);
    const other = managerFor({ remote: { url: `${server.url}?v=2` } });
    await other.start();
    expect(stateOf(other)).toMatchObject({ status: 'sign_in', signedOut: false });
  });
});

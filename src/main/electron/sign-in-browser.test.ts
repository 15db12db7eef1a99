import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recorded } from '../../../test-support/electron-stand-in';
import { startOAuthMcpServer, type RunningOAuthMcpServer } from '../../../test-support/mcp-server/oauth-http';
import { completeSignInInBrowser } from '../../../test-support/mcp-server/test-browser';
import type { CallInput, CallName, CallOutput } from '../../shared/contract';
import type { McpServerState } from '../../shared/mcp';
import { createServices, type AppServices } from '../app/services';
import { MemorySecretStore } from '../settings/api-key-store';
import { EncryptedFileSecretStore } from './encrypted-file-secret-store';
import { aesCipher } from '../../../test-support/main/aes-cipher';
import { openSignInPage } from './sign-in-browser';

vi.mock('electron', async () => (await import('../../../test-support/electron-stand-in')).electron);

let dir: string;
let server: RunningOAuthMcpServer;
let services: AppServices | null = null;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-sign-in-browser-'));
  server = await startOAuthMcpServer();
});
afterEach(async () => {
  await services?.dispose();
  services = null;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function settle<T>(value: () => T | undefined | false | Promise<T | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const got = await value();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the desktop sign-in page (shell.openExternal, stand-in electron)', () => {
  it('opens only http(s) addresses', async () => {
    const before = recorded.opened.length;
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'vscode://x', 'http://user:pw@127.0.0.1/']) openSignInPage(url);
    openSignInPage('https://auth.example/authorize?client_id=x');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(recorded.opened.slice(before)).toEqual(['https://auth.example/authorize?client_id=x']);
  });

  it('"Sign in" opens the system browser on the authorization page; the tokens are kept encrypted and reused at the next start', async () => {
    const file = join(dir, 'mcp-sign-ins.bin');
    const cipher = aesCipher();
    const start = async () => {
      services = await createServices({
        dataDir: join(dir, 'data'),
        workspace: null,
        shell: 'electron',
        secretStore: new MemorySecretStore(),
        mcpTokenStore: new EncryptedFileSecretStore(file, cipher),
        openSignInPage,
        env: {},
      });
      return services;
    };
    const call = async <N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> => {
      const result = await services!.router(name, input);
      if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
      return result.value as CallOutput<N>;
    };
    const remote = async (): Promise<McpServerState | undefined> => (await call('getMcpStates', {})).servers.find((s) => s.name === 'remote');

    await start();
    await call('setSettings', { patch: { mcpServers: { remote: { url: server.url } } } });
    let state: McpServerState | undefined;
    await settle(async () => (state = await remote())?.status === 'sign_in', 'the sign-in state');
    const before = recorded.opened.length;
    expect(await call('signInMcpServer', { name: 'remote' })).toEqual({ started: true });
    const page = await settle(() => recorded.opened[before], 'the browser to be opened');
    expect(new URL(page).searchParams.get('code_challenge_method')).toBe('S256');
    await completeSignInInBrowser(page);
    await settle(async () => (state = await remote())?.status === 'ready', 'the server to be ready');
    expect(state).toMatchObject({ status: 'ready', toolCount: 7 });

    const saved = readFileSync(file).toString('latin1');
    expect(server.issued.length).toBeGreaterThan(0);
    for (const token of server.issued) expect(saved).not.toContain(token);

    await services!.dispose();
    await start();
    await settle(async () => (state = await remote())?.status === 'ready', 'the server to be ready again');
    expect(server.counts.authorizations).toBe(1);
    expect(await call('signInMcpServer', { name: 'nope' })).toEqual({ started: false });
  });
});

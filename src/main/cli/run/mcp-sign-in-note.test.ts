import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOAuthMcpServer, type RunningOAuthMcpServer } from '../../../../test-support/mcp-server/oauth-http';
import { createServices, type Services } from '../../app/services';
import { MemorySecretStore } from '../../settings/api-key-store';
import { reportSignInsNeeded } from './mcp-sign-in-note';

let dir: string;
let server: RunningOAuthMcpServer;
let services: Services;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-run-sign-in-'));
  server = await startOAuthMcpServer();
});
afterEach(async () => {
  await services.dispose();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('waypoint run and a remote MCP server that wants a sign-in', () => {
  it('says so once on stderr, telling the person to sign in from the app, and never opens a sign-in', async () => {
    services = await createServices({ dataDir: join(dir, 'data'), workspace: null, shell: 'cli', secretStore: new MemorySecretStore(), env: {} });
    const lines: string[] = [];
    const note = reportSignInsNeeded(services, { write: (text: string) => lines.push(text) });
    await services.router('setSettings', { patch: { mcpServers: { remote: { url: server.url } } } });
    const deadline = Date.now() + 15_000;
    while (lines.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    // Another state change of the same server is not told again.
    await services.router('restartMcpServer', { name: 'remote' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    note.dispose();
    expect(lines).toEqual([
      'waypoint: MCP server "remote" needs a sign-in, which waypoint run never does (it opens no browser): sign in to it from the Waypoint app (Settings, MCP servers, "Sign in"). This run goes on without its tools.\n',
    ]);
    expect(server.counts).toMatchObject({ registrations: 0, authorizations: 0 });
  });
});

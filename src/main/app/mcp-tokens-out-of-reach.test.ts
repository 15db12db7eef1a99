import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startOAuthMcpServer, type RunningOAuthMcpServer } from '../../../test-support/mcp-server/oauth-http';
import { completeSignInInBrowser } from '../../../test-support/mcp-server/test-browser';
import type { CallInput, CallName, CallOutput } from '../../shared/contract';
import type { McpServerState } from '../../shared/mcp';
import { defaultSettings } from '../../shared/settings';
import { MemorySecretStore } from '../settings/api-key-store';
import { callTool } from '../tools/define-tool';
import { McpManager } from '../tools/mcp/mcp-manager';
import { createServices, type Services } from './services';

/**
 * Remote MCP sign-in tokens stay in main (docs/security.md, "Remote MCP sign-ins"): after a
 * sign-in, a silent refresh, a refused refresh and a refused sign-in, no access or refresh token
 * is in anything the window gets (events, call results), in a file of the data folder, in what
 * main printed, in an error message, or in the environment of an MCP server Waypoint starts.
 */
const STDIO = { command: process.execPath, args: ['--import', 'tsx', resolve('test-support/mcp-server/stdio.ts'), '--env-tool'], trusted: true };

let dir: string;
let server: RunningOAuthMcpServer;
let services: Services;
let windowSaw: string[];
let printed: string[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-mcp-tokens-'));
  server = await startOAuthMcpServer();
  printed = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
});
afterEach(async () => {
  await services?.dispose();
  await server.close();
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

async function call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
  const result = await services.router(name, input);
  windowSaw.push(JSON.stringify(result));
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as CallOutput<N>;
}

async function remote(until: (s: McpServerState) => boolean, what: string): Promise<McpServerState> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = (await call('getMcpStates', {})).servers.find((s) => s.name === 'remote');
    if (state && until(state)) return state;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(state)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function signInWithBrowser(): Promise<McpServerState> {
  await call('signInMcpServer', { name: 'remote' });
  const waiting = await remote((s) => s.status === 'sign_in' && (!!s.signInUrl || !!s.error), 'the sign-in page');
  if (waiting.status === 'sign_in' && waiting.signInUrl) printed.push((await completeSignInInBrowser(waiting.signInUrl)).body);
  return remote((s) => s.status === 'ready' || (s.status === 'sign_in' && !s.signInUrl && !!s.error), 'the sign-in to end');
}

describe('remote MCP sign-in tokens never leave main', () => {
  it('not in events, call results, the data folder, what main printed, error messages or an MCP child environment', async () => {
    const configPath = join(dir, 'mcp.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: { remote: { url: server.url }, local: STDIO } }));
    windowSaw = [];
    services = await createServices({ dataDir: join(dir, 'data'), workspace: dir, shell: 'web', secretStore: new MemorySecretStore(), env: {}, mcpConfigPath: configPath });
    services.onEvent((event) => windowSaw.push(JSON.stringify(event)));

    await remote((s) => s.status === 'sign_in', 'the first sign-in state');
    expect(await signInWithBrowser()).toMatchObject({ status: 'ready' });
    // A silent refresh: new tokens, stored in main only.
    server.expireAccessTokens();
    await call('restartMcpServer', { name: 'remote' });
    await remote((s) => s.status === 'ready', 'ready after a refresh');
    expect(server.counts.refreshes).toBe(1);
    // The keys the process guards blank out include the tokens held now.
    const held = (services.secrets?.() ?? []).filter((s): s is string => !!s);
    expect(held).toEqual(expect.arrayContaining(server.issued.slice(-2)));
    // A refused refresh, then a refused sign-in: both said in words.
    server.revokeRefreshTokens();
    server.expireAccessTokens();
    await call('restartMcpServer', { name: 'remote' });
    await remote((s) => s.status === 'sign_in' && s.signedOut, 'signed out');
    server.faults = { refuseCode: true };
    const refused = await signInWithBrowser();
    expect(refused.status === 'sign_in' && refused.error).toMatch(/refused to give tokens/);
    await call('getSettings', {});

    // An MCP server's own environment: built from an allow-list, tokens are nowhere near it.
    const child = new McpManager({ local: STDIO });
    await child.start();
    const env = await callTool(child.tools().find((t) => t.name === 'local__env')!, {}, { sessionId: 's', signal: new AbortController().signal, settings: defaultSettings() });
    await child.dispose();
    expect(env.ok).toBe(true);

    const files = (await readdir(join(dir, 'data'), { withFileTypes: true, recursive: true })).filter((e) => e.isFile());
    const folder = await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name), 'latin1')));
    const tokens = server.issued;
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    for (const token of tokens) {
      expect(windowSaw.join('\n')).not.toContain(token);
      expect(folder.join('\n')).not.toContain(token);
      expect(printed.join('\n')).not.toContain(token);
      expect(env.ok && env.content).not.toContain(token);
      expect(JSON.stringify(process.env)).not.toContain(token);
    }
  });
});

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import type { CallInput, CallName, CallOutput, EventOf, WaypointEvent } from '../../shared/contract';
import type { McpServerState } from '../../shared/mcp';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';
import { WEB_WORKSPACE_MESSAGE } from './workspace-choice';
import { stripCacheControl } from '../agent/model/cache-control';

// MCP through the whole app: createServices with the real stdio test server, the real SDK and
// the scripted Messages API. Claude (scripted) calls the server's tool after the user approves.

const SERVER = resolve('test-support/mcp-server/stdio.ts');
const stdio = (...extra: string[]) => ({ command: process.execPath, args: ['--import', 'tsx', SERVER, ...extra] });

let dir: string;
let api: ScriptedServer;
let services: AppServices;
let events: WaypointEvent[];

const call = async <N extends CallName>(name: N, input: CallInput<N> = {} as CallInput<N>): Promise<CallOutput<N>> => {
  const result = await services.router(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as CallOutput<N>;
};

async function waitFor<T extends WaypointEvent['type']>(type: T, pred: (e: EventOf<T>) => boolean = () => true, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = events.find((e): e is EventOf<T> => e.type === type && pred(e as EventOf<T>));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching ${type}; got ${events.map((e) => e.type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
const stateIs = (name: string, status: McpServerState['status']) => (e: EventOf<'mcp_state'>) =>
  e.servers.some((s) => s.name === name && s.status === status);

async function boot(scenario: Scenario, mcpConfig: object) {
  api = await startScriptedServer({ scenario });
  const configPath = join(dir, 'mcp.json');
  await writeFile(configPath, JSON.stringify(mcpConfig));
  events = [];
  services = await createServices({
    dataDir: join(dir, 'data'),
    workspace: dir,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-env-key-123', ANTHROPIC_BASE_URL: api.url },
    mcpConfigPath: configPath,
  });
  services.onEvent((e) => events.push(e));
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-mcp-app-'));
});
afterEach(async () => {
  await services?.dispose();
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

// Each test starts real MCP server processes (node + tsx): slow on a loaded 2-core machine.
describe('MCP servers in the app', { timeout: 90_000 }, () => {
  it("a server's tool reaches Claude's tool list and a scripted call to it returns its result, after approval", async () => {
    await boot(
      {
        name: 'mcp',
        turns: [
          { kind: 'tool_use', text: 'Asking the server.', calls: [{ name: 'test__echo', id: 'toolu_M', input: { text: 'ping' } }] },
          { kind: 'text', text: 'The server said pong-ish.' },
        ],
      },
      { mcpServers: { test: stdio() } },
    );
    await waitFor('mcp_state', stateIs('test', 'ready'));
    expect((await call('getMcpStates')).servers).toEqual([{ name: 'test', transport: 'stdio', status: 'ready', toolCount: 7, tools: ['echo', 'add', 'fail', 'pid', 'hang', 'crash', 'weird.name'] }]);

    const { id } = await call('newSession');
    await call('sendMessage', { sessionId: id, text: 'use the server' });
    const { request } = await waitFor('approval_requested');
    expect(request).toMatchObject({ kind: 'mcp', server: 'test', toolName: 'test__echo', summary: 'test: echo' });
    expect(request.dryRun).toContain('Would call echo on MCP server "test"');
    expect(await call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve' })).toEqual({ accepted: true });
    await waitFor('transcript_item', (e) => e.item.kind === 'assistant' && e.item.text === 'The server said pong-ish.' && e.item.status === 'done');

    const tools = (api.requests[0]!.body as { tools: { name: string; description: string }[] }).tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['test__echo', 'test__add', 'read_file', 'write_file']));
    expect(tools.find((t) => t.name === 'test__echo')!.description).toContain('from MCP server "test"');
    const second = api.requests[1]!.body as { messages: { content: unknown }[] };
    expect(stripCacheControl(second.messages[2]!.content)).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_M', content: 'echo: ping' }]);
    const card = (await call('getSession', { sessionId: id })).transcript.find((i: { kind: string }) => i.kind === 'tool_call');
    expect(card).toMatchObject({ name: 'test__echo', server: 'test', status: 'done', result: 'echo: ping' });
  });

  it('a server that cannot start is failed with its stderr tail; restart and a settings change restart servers', async () => {
    await boot({ name: 'echo', turns: [] }, { mcpServers: { broken: stdio('--fail-at-start') } });
    const failed = await waitFor('mcp_state', stateIs('broken', 'failed'));
    const broken = failed.servers.find((s) => s.name === 'broken');
    expect(broken?.status === 'failed' && broken.stderrTail).toContain('missing configuration, giving up');

    const mark = events.length;
    expect(await call('restartMcpServer', { name: 'broken' })).toEqual({ restarted: true });
    expect(await call('restartMcpServer', { name: 'nope' })).toEqual({ restarted: false });
    await waitFor('mcp_state', (e) => events.indexOf(e) >= mark && stateIs('broken', 'starting')(e));
    await waitFor('mcp_state', (e) => events.indexOf(e) >= mark && stateIs('broken', 'failed')(e));

    // A server added in Settings starts beside the file's (which is not restarted: it did not change).
    const changed = events.length;
    await call('setSettings', { patch: { mcpServers: { fromSettings: { ...stdio(), trusted: true } } } });
    await waitFor('mcp_state', (e) => events.indexOf(e) >= changed && stateIs('fromSettings', 'ready')(e) && stateIs('broken', 'failed')(e));
    expect((await call('getMcpStates')).servers.map((s: McpServerState) => [s.name, s.status])).toEqual([
      ['broken', 'failed'],
      ['fromSettings', 'ready'],
    ]);
  });

  it('saving servers through setSettings writes the settings file and restarts only the server that changed', async () => {
    await boot({ name: 'echo', turns: [] }, { mcpServers: {} });
    const settingsFile = async () => (JSON.parse(await readFile(join(dir, 'data', 'settings.json'), 'utf8')) as { mcpServers: unknown }).mcpServers;
    const statesSince = (mark: number) => events.slice(mark).filter((e): e is EventOf<'mcp_state'> => e.type === 'mcp_state');
    await call('setSettings', { patch: { mcpServers: { alpha: stdio(), beta: stdio() } } });
    await waitFor('mcp_state', (e) => stateIs('alpha', 'ready')(e) && stateIs('beta', 'ready')(e));

    // Edit alpha (one more argument: one more tool): alpha reconnects, beta never stops.
    let mark = events.length;
    await call('setSettings', { patch: { mcpServers: { alpha: stdio('--env-tool'), beta: stdio() } } });
    expect(await settingsFile()).toEqual({ alpha: stdio('--env-tool'), beta: stdio() });
    await waitFor('mcp_state', (e) => events.indexOf(e) >= mark && e.servers.some((s) => s.name === 'alpha' && s.status === 'ready' && s.toolCount === 8));
    expect(statesSince(mark).some(stateIs('alpha', 'starting'))).toBe(true);
    expect(statesSince(mark).every(stateIs('beta', 'ready'))).toBe(true);

    // Rename beta to gamma: gamma starts, beta is gone, alpha keeps running.
    mark = events.length;
    await call('setSettings', { patch: { mcpServers: { alpha: stdio('--env-tool'), gamma: stdio() } } });
    await waitFor('mcp_state', (e) => events.indexOf(e) >= mark && stateIs('gamma', 'ready')(e));
    expect(statesSince(mark).every((e) => stateIs('alpha', 'ready')(e) && !e.servers.some((s) => s.name === 'beta'))).toBe(true);

    // A name that cannot prefix tool names is refused in words; nothing changes.
    const refused = await services.router('setSettings', { patch: { mcpServers: { 'my server': stdio() } } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/my server.*letters, digits/) } });
    expect(await settingsFile()).toEqual({ alpha: stdio('--env-tool'), gamma: stdio() });
    expect((await call('getMcpStates')).servers.map((s: McpServerState) => s.name)).toEqual(['alpha', 'gamma']);
  });

  it('the web shell answers chooseWorkspace with a clear error; chats keep the --workspace folder', async () => {
    await boot({ name: 'echo', turns: [] }, { mcpServers: {} });
    const session = await call('newSession');
    expect(session.workspace).toBe(dir);
    const result = await services.router('chooseWorkspace', { sessionId: session.id });
    expect(result).toEqual({ ok: false, error: { code: 'invalid_input', message: WEB_WORKSPACE_MESSAGE } });
  });
});

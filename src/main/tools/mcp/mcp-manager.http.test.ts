import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import type { ToolContext, ToolOutcome } from '../tool';
import { startHttpMcpServer, type RunningHttpMcpServer } from '../../../../test-support/mcp-server/http';
import { McpManager } from './mcp-manager';
import { callTool } from '../define-tool';

const ctx = (): ToolContext => ({ sessionId: 's', signal: new AbortController().signal, settings: defaultSettings() });
const text = (outcome: ToolOutcome): string => (outcome.ok ? outcome.content : `ERROR ${outcome.error.kind}: ${outcome.error.message}`);

let server: RunningHttpMcpServer;
let manager: McpManager;

beforeEach(async () => {
  server = await startHttpMcpServer();
});
afterEach(async () => {
  await manager.dispose();
  await server.close();
});

describe('McpManager over streamable HTTP (real server on 127.0.0.1)', () => {
  it('connects with the configured headers, lists and calls tools', async () => {
    manager = new McpManager({ 'my web': { url: server.url, headers: { 'X-Waypoint-Test': 'yes' } } }, { callTimeoutMs: 500 });
    await manager.start();
    expect(manager.states()).toEqual([{ name: 'my web', transport: 'http', status: 'ready', toolCount: 7, tools: ['echo', 'add', 'fail', 'pid', 'hang', 'crash', 'weird.name'] }]);
    expect(server.requests.some((r) => r.headers['x-waypoint-test'] === 'yes')).toBe(true);

    const tools = new Map(manager.tools().map((t) => [t.name, t]));
    expect([...tools.keys()]).toContain('my_web__add');
    expect(text(await callTool(tools.get('my_web__add')!, { a: 40, b: 2 }, ctx()))).toBe('42');
    expect(text(await callTool(tools.get('my_web__fail')!, {}, ctx()))).toBe('ERROR unknown: failed on purpose: no reason');
    expect(text(await callTool(tools.get('my_web__hang')!, {}, ctx()))).toBe('ERROR timeout: MCP server "my web" did not answer within 500 ms.');
  });

  it('an unreachable server fails to start; a server that goes away answers unavailable', async () => {
    const gone = await startHttpMcpServer();
    await gone.close();
    manager = new McpManager({ gone: { url: gone.url }, live: { url: server.url } });
    await manager.start();
    const states = manager.states();
    expect(states.find((s) => s.name === 'gone')?.status).toBe('failed');
    expect(states.find((s) => s.name === 'live')?.status).toBe('ready');

    const echo = manager.tools().find((t) => t.name === 'live__echo')!;
    await server.close();
    const outcome = await callTool(echo, { text: 'x' }, ctx());
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.kind).toBe('unavailable');
  });
});

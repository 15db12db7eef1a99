import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../tool';
import { McpManager } from './mcp-manager';
import type { McpServerState } from './mcp-state';
import { API_TOOL_NAME } from './tool-name';
import { callTool } from '../define-tool';
import { parsedInput } from '../../../../test-support/main/test-workspace';

const SERVER = path.resolve('test-support/mcp-server/stdio.ts');
const stdioServer = (...extra: string[]) => ({ command: process.execPath, args: ['--import', 'tsx', SERVER, ...extra] });
const ctx = (signal = new AbortController().signal): ToolContext => ({ sessionId: 's', signal, settings: defaultSettings() });

let manager: McpManager | null = null;
afterEach(async () => {
  await manager?.dispose();
  manager = null;
});

const tool = (name: string): ToolDefinition => {
  const found = manager?.tools().find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}; have ${manager?.tools().map((t) => t.name).join(', ')}`);
  return found;
};
const stateOf = (name: string): McpServerState | undefined => manager?.states().find((s) => s.name === name);
const text = (outcome: ToolOutcome): string => (outcome.ok ? outcome.content : `ERROR ${outcome.error.kind}: ${outcome.error.message}`);

/** Processes (alive) whose command line holds this mark. */
const marked = (mark: string): string[] =>
  fs.readdirSync('/proc').filter((entry) => {
    try {
      return /^\d+$/.test(entry) && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(mark) && alive(Number(entry));
    } catch {
      return false; // gone meanwhile
    }
  });

/** Running and not a zombie. */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z';
  } catch {
    return false;
  }
};

// Real child processes (node + tsx) start slowly on a loaded 2-core machine.
describe('McpManager over stdio (real child process)', { timeout: 90_000 }, () => {
  it('starts servers, lists tools with API-safe names, and calls them', async () => {
    manager = new McpManager({ test: stdioServer() });
    const seen: string[] = [];
    manager.onDidChange((states) => seen.push(states.map((s) => s.status).join(',')));
    expect(stateOf('test')?.status).toBe('starting');
    await manager.start();
    expect(stateOf('test')).toEqual({ name: 'test', transport: 'stdio', status: 'ready', toolCount: 7, tools: ['echo', 'add', 'fail', 'pid', 'hang', 'crash', 'weird.name'] });
    expect(seen).toContain('ready');

    const tools = manager.tools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['test__add', 'test__crash', 'test__echo', 'test__fail', 'test__hang', 'test__pid', 'test__weird_name'].sort(),
    );
    for (const t of tools) {
      expect(t.name).toMatch(API_TOOL_NAME);
      expect(t.group).toBe('mcp');
      expect(t.server).toBe('test');
      expect(t.inputSchema.type).toBe('object');
      expect(t.needsApproval(parsedInput(t, {}), defaultSettings())).toBe(true);
    }
    // The server's readOnlyHint marks a tool that changes nothing; the others are taken to change things.
    expect(tools.filter((t) => t.readOnly).map((t) => t.name)).toEqual(['test__echo']);
    expect(tool('test__echo').inputSchema.properties).toHaveProperty('text');
    expect(tool('test__echo').describeDryRun(parsedInput(tool('test__echo'), { text: 'hi' }))).toContain('Would call echo on MCP server "test"');

    expect(text(await callTool(tool('test__echo'), { text: 'hi' }, ctx()))).toBe('echo: hi');
    expect(text(await callTool(tool('test__add'), { a: 2, b: 3 }, ctx()))).toBe('5');
    expect(text(await callTool(tool('test__weird_name'), {}, ctx()))).toBe('odd');
  });

  it('maps isError, bad arguments and hangs to ToolErrors', async () => {
    manager = new McpManager({ test: stdioServer() }, { callTimeoutMs: 500 });
    await manager.start();
    const failed = await callTool(tool('test__fail'), { reason: 'because' }, ctx());
    expect(failed).toEqual({ ok: false, error: { kind: 'unknown', message: 'failed on purpose: because' } });
    const bad = await callTool(tool('test__add'), { a: 'two', b: 3 }, ctx());
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.kind).toBe('invalid_parameter');
    expect(text(await callTool(tool('test__echo'), 'not an object', ctx()))).toContain('must be a JSON object');

    const started = Date.now();
    const hung = await callTool(tool('test__hang'), {}, ctx());
    expect(hung.ok).toBe(false);
    if (!hung.ok) expect(hung.error).toEqual({ kind: 'timeout', message: 'MCP server "test" did not answer within 500 ms.' });
    expect(Date.now() - started).toBeLessThan(3000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const stopped = await callTool(tool('test__hang'), {}, ctx(controller.signal));
    expect(stopped.ok ? '' : stopped.error.message).toContain('stopped by the user');
    // The server is still usable after a timed-out call.
    expect(text(await callTool(tool('test__echo'), { text: 'still here' }, ctx()))).toBe('echo: still here');
  });

  it('a crash becomes failed with the stderr tail; restart brings it back', async () => {
    manager = new McpManager({ test: stdioServer() });
    await manager.start();
    const crashTool = tool('test__crash');
    const failedSeen = new Promise<McpServerState[]>((resolve) =>
      manager?.onDidChange((states) => states.some((s) => s.status === 'failed') && resolve(states)),
    );
    const outcome = await callTool(crashTool, {}, ctx());
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.kind).toBe('unavailable');
    await failedSeen;
    const state = stateOf('test');
    expect(state?.status).toBe('failed');
    if (state?.status === 'failed') expect(state.stderrTail).toContain('crashing on purpose');
    expect(manager.tools()).toEqual([]);
    // A tool object held from before the crash answers unavailable, not a throw.
    const later = await callTool(crashTool, {}, ctx());
    expect(later.ok ? '' : later.error.kind).toBe('unavailable');

    expect(await manager.restart('test')).toBe(true);
    expect(stateOf('test')?.status).toBe('ready');
    expect(text(await callTool(tool('test__echo'), { text: 'back' }, ctx()))).toBe('echo: back');
    expect(await manager.restart('nope')).toBe(false);
  });

  it('servers that cannot start, and invalid entries, become failed without throwing', async () => {
    manager = new McpManager({
      broken: stdioServer('--fail-at-start'),
      missing: { command: '/no/such/mcp-binary' },
      notOnPath: { command: 'waypoint-no-such-command' },
      invalid: { url: 'not a url' },
      good: { ...stdioServer(), trusted: true },
    });
    await manager.start();
    const broken = stateOf('broken');
    expect(broken?.status).toBe('failed');
    if (broken?.status === 'failed') expect(broken.stderrTail).toContain('missing configuration, giving up');
    // Said as spawn says it (the app words it "the command … was not found"), also where the
    // server would start under bubblewrap, whose own execvp message is no use to a person.
    for (const [name, command] of [['missing', '/no/such/mcp-binary'], ['notOnPath', 'waypoint-no-such-command']] as const) {
      const state = stateOf(name);
      expect(state?.status).toBe('failed');
      if (state?.status === 'failed') expect(state.error).toContain(`spawn ${command} ENOENT`);
    }
    const invalid = stateOf('invalid');
    expect(invalid?.status).toBe('failed');
    if (invalid?.status === 'failed') expect(invalid.error).toContain('Invalid configuration');
    expect(stateOf('good')?.status).toBe('ready');
    expect(manager.tools().every((t) => t.server === 'good')).toBe(true);
    expect(tool('good__echo').needsApproval(parsedInput(tool('good__echo'), {}), defaultSettings())).toBe(false); // trusted
  });

  it('dispose ends the child processes', async () => {
    // Found by a mark on its command line: the pid the server tells is its own PID namespace's
    // when it runs under bubblewrap (pid-isolation.ts), not one this process can signal.
    const mark = `--mark=${process.pid}-${Math.random().toString(36).slice(2)}`;
    manager = new McpManager({ test: stdioServer(mark) });
    await manager.start();
    expect(Number(text(await callTool(tool('test__pid'), {}, ctx())))).toBeGreaterThan(0);
    const server = marked(mark);
    expect(server.length).toBeGreaterThan(0);
    await manager.dispose();
    expect(marked(mark)).toEqual([]);
  });

  it('update keeps an unchanged server running, restarts a changed one and ends a removed or invalid one', async () => {
    const mark = (what: string) => `--mark=${process.pid}-${what}-${Math.random().toString(36).slice(2)}`;
    const [kept, before, after, removed, broken] = ['kept', 'before', 'after', 'removed', 'broken'].map(mark) as [string, string, string, string, string];
    manager = new McpManager({ kept: stdioServer(kept), changed: stdioServer(before), removed: stdioServer(removed), broken: stdioServer(broken) });
    await manager.start();
    const keptPids = marked(kept);
    expect(keptPids.length).toBeGreaterThan(0);

    const seen: McpServerState[][] = [];
    manager.onDidChange((states) => seen.push(states));
    await manager.update({ kept: stdioServer(kept), changed: stdioServer(after), broken: { args: [] } });
    expect(manager.states().map((s) => [s.name, s.status])).toEqual([
      ['broken', 'failed'],
      ['changed', 'ready'],
      ['kept', 'ready'],
    ]);
    expect(stateOf('broken')).toMatchObject({ error: expect.stringContaining('Invalid configuration') });
    expect(seen.every((states) => states.find((s) => s.name === 'kept')?.status === 'ready')).toBe(true);
    expect(marked(kept)).toEqual(keptPids);
    expect(marked(after).length).toBeGreaterThan(0);
    // The replaced processes end in the background.
    for (let i = 0; i < 100 && [before, removed, broken].some((m) => marked(m).length > 0); i++) await new Promise((r) => setTimeout(r, 50));
    expect([before, removed, broken].map(marked)).toEqual([[], [], []]);
    expect(tool('changed__echo')).toBeDefined();
    expect(manager.tools().some((t) => t.name.startsWith('removed__'))).toBe(false);
  });
});

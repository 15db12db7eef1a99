import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, killAllCli, requireBuiltCli, type McpSession } from '../../../../test-support/main/cli-harness';
import { checkLogs } from '../../../../test-support/main/kill-harness';
import { Dialect } from '../../../shared/plan';
import { PlanService } from '../../plan/plan-service';
import { defaultSettings } from '../../../shared/settings';
import { callTool } from '../../tools/define-tool';

/**
 * `waypoint mcp` driven by the official MCP SDK client over stdio, as Claude Code or Claude
 * Desktop drive it: the built CLI in a child process, real files, real locks.
 */
let root: string;
const open = new Set<McpSession>();

beforeAll(() => {
  requireBuiltCli();
  root = mkdtempSync(join(tmpdir(), 'waypoint-mcp-'));
});
afterEach(async () => {
  for (const session of open) await session.close().catch(() => undefined);
  open.clear();
  killAllCli();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const freshDir = () => join(root, `data-${++n}`);
async function connect(dataDir: string, client = 'claude-code', args: string[] = []): Promise<McpSession> {
  const session = await connectMcp(dataDir, client, args);
  open.add(session);
  return session;
}
/** The client hangs up as Claude Code does on quit: stdin closes, the server saves and leaves. */
async function disconnect(session: McpSession): Promise<number | null> {
  await session.close();
  open.delete(session);
  return session.exited;
}

const GRID = {
  goal: 'Ship the release',
  steps: [
    { step_number: 1, description: 'Bump the version' },
    { step_number: 2, description: 'Write the changelog', depends_on: [1] },
  ],
};

// Each test starts several server processes one after another: give a loaded machine time.
describe('waypoint mcp', { timeout: 90_000 }, () => {
  it("offers exactly each style's planning tools, with the schemas the app gives Claude", async () => {
    const inProcess = new PlanService({ dataDir: root });
    for (const style of Dialect.options) {
      const session = await connect(freshDir(), 'schema-check', ['--planning-style', style]);
      const { tools } = await session.client.listTools();
      const expected = inProcess.toolsFor(style).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
      expect(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).toEqual(expected);
      await disconnect(session);
    }
    inProcess.dispose();
  });

  it('plans in a chat named after the client, made on the first call; results are the app\'s; a broken rule is an error and changes nothing', async () => {
    const dataDir = freshDir();
    const session = await connect(dataDir);
    await session.client.listTools();
    expect(existsSync(join(dataDir, 'sessions')) ? checkLogs(dataDir) : []).toEqual([]); // listing made no chat

    const created = await session.call('create_plan', GRID);
    // The same tool, run in the app's process, answers in the same words.
    const reference = new PlanService({ dataDir: join(root, 'reference') });
    const tool = reference.toolsFor('structured').find((t) => t.name === 'create_plan')!;
    const local = await callTool(tool, GRID, { sessionId: 'x', signal: new AbortController().signal, settings: defaultSettings() });
    reference.dispose();
    expect(created).toEqual({ text: local.ok ? local.content : '?', isError: false });

    const refused = await session.call('update_plan', { action: 'start_step', step_number: 2 });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/Step 2 cannot start yet: it depends on step 1/);
    const invalid = await session.call('update_plan', { action: 'launch_step', step_number: 1 });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/^Invalid update_plan input: action/);
    const unknown = await session.call('planning_initialize', {});
    expect(unknown).toMatchObject({ isError: true, text: expect.stringMatching(/Unknown tool "planning_initialize".*create_plan, update_plan, complete_plan/) });

    const started = await session.call('update_plan', { action: 'start_step', step_number: 1 });
    expect(started.text).toMatch(/^Updated plan: step 1 started/);
    await disconnect(session);

    const [log, ...others] = checkLogs(dataDir);
    expect(others).toEqual([]);
    expect(log!.problems).toEqual([]);
    expect(log!.chat.summary.title).toBe('claude-code: Ship the release');
    expect(log!.chat.summary.origin).toEqual({ kind: 'mcp', client: 'claude-code', style: 'structured' });
    // Two changes: the refused calls left no trace in the plan.
    expect(log!.chat.plan).toMatchObject({ version: 2, status: 'active' });
    expect(log!.chat.plan!.steps.map((s) => s.status)).toEqual(['in_progress', 'pending']);
    expect(existsSync(join(dataDir, 'sessions', `${log!.id}.lock`))).toBe(false);
  });

  it('a restarted server continues the same client\'s active plan; another client, style or a finished plan gets a new chat', async () => {
    const dataDir = freshDir();
    let session = await connect(dataDir);
    await session.call('create_plan', GRID);
    await disconnect(session);

    session = await connect(dataDir);
    const next = await session.call('update_plan', { action: 'start_step', step_number: 1 });
    expect(next.text).toMatch(/^Updated plan: step 1 started/);
    expect(session.stderr()).toMatch(/continuing chat [0-9a-f-]{36} \("claude-code: Ship the release"\)/);
    await disconnect(session);
    expect(checkLogs(dataDir)).toHaveLength(1);

    const other = await connect(dataDir, 'cursor');
    expect((await other.call('update_plan', { action: 'complete_step', step_number: 1 })).text).toMatch(/no plan yet/i);
    await disconnect(other);
    const styled = await connect(dataDir, 'claude-code', ['--planning-style', 'checklist']);
    await styled.call('update_plan', { plan: [{ step: 'Only step', status: 'pending' }] });
    await disconnect(styled);
    expect(checkLogs(dataDir)).toHaveLength(3);

    session = await connect(dataDir);
    await session.call('update_plan', { action: 'complete_step', step_number: 1, result: 'done' });
    await session.call('update_plan', { action: 'start_step', step_number: 2 });
    await session.call('update_plan', { action: 'complete_step', step_number: 2, result: 'done' });
    await disconnect(session);
    // The plan is done: the next server for this client starts afresh.
    session = await connect(dataDir);
    await session.call('create_plan', { goal: 'Next thing', steps: [{ step_number: 1, description: 'Do it' }] });
    await disconnect(session);
    const titles = checkLogs(dataDir).map((l) => l.chat.summary.title).sort();
    expect(titles).toEqual(['claude-code: Next thing', 'claude-code: Ship the release', 'claude-code: Task plan', 'cursor · planning over MCP']);
  });

  it('a client name of 1 MB with escapes and bidi controls: the chat, its title and the lock get one clean line of at most 80 characters', async () => {
    const dataDir = freshDir();
    const hostile = `evil\u001b]0;pwned\u0007 \u202egnp.exe\u202c\n${'x'.repeat(1_000_000)}`;
    let session = await connect(dataDir, hostile);
    await session.call('create_plan', GRID);
    // eslint-disable-next-line no-control-regex
    expect(session.stderr()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(session.stderr().length).toBeLessThan(2000);
    await disconnect(session);
    const [log, ...others] = checkLogs(dataDir);
    expect(others).toEqual([]);
    const origin = log!.chat.summary.origin as { kind: 'mcp'; client: string };
    expect(origin.client).toMatch(/^evil gnp\.exe x+…$/);
    expect(Array.from(origin.client)).toHaveLength(80);
    expect(log!.chat.summary.title).toBe(`${origin.client}: Ship the release`);
    // The same client started again is still known as itself: it continues its chat.
    session = await connect(dataDir, hostile);
    expect((await session.call('update_plan', { action: 'start_step', step_number: 1 })).isError).toBe(false);
    await disconnect(session);
    expect(checkLogs(dataDir)).toHaveLength(1);
  });

  it('the same client twice at once: the second gets its own chat, since the first writes that one', async () => {
    const dataDir = freshDir();
    const first = await connect(dataDir);
    await first.call('create_plan', GRID);
    await disconnect(first);
    const a = await connect(dataDir);
    await a.call('update_plan', { action: 'start_step', step_number: 1 });
    const b = await connect(dataDir);
    const result = await b.call('create_plan', { goal: 'Parallel work', steps: [{ step_number: 1, description: 'Other' }] });
    expect(result.isError).toBe(false);
    expect(b.stderr()).toMatch(/not continuing chat .*being written by waypoint mcp \(claude-code\), pid \d+.*Starting a new chat/);
    await disconnect(a);
    await disconnect(b);
    const logs = checkLogs(dataDir);
    expect(logs).toHaveLength(2);
    expect(logs.flatMap((l) => l.problems)).toEqual([]);
  });

  it('SIGKILL mid-plan: the log stays readable and a restarted server takes the stale lock over, saying so', async () => {
    const dataDir = freshDir();
    const session = await connect(dataDir);
    await session.call('create_plan', GRID);
    await session.call('update_plan', { action: 'start_step', step_number: 1 });
    session.child.kill('SIGKILL');
    await session.exited;
    open.delete(session);
    const [log] = checkLogs(dataDir);
    expect(log!.problems).toEqual([]);
    expect(existsSync(join(dataDir, 'sessions', `${log!.id}.lock`))).toBe(true);

    const again = await connect(dataDir);
    const done = await again.call('update_plan', { action: 'complete_step', step_number: 1, result: 'v2' });
    expect(done.text).toMatch(/^Updated plan: step 1 completed/);
    expect(again.stderr()).toMatch(/was left locked by waypoint mcp \(claude-code\), pid \d+, which is no longer running; this process took it over/);
    await disconnect(again);
    const after = checkLogs(dataDir);
    expect(after).toHaveLength(1);
    expect(after[0]!.problems).toEqual([]);
    expect(after[0]!.chat.plan?.steps[0]?.status).toBe('completed');
  });

  it('a client that disconnects mid-call: the server saves, lets go and leaves; nothing half-written', async () => {
    const dataDir = freshDir();
    const session = await connect(dataDir);
    await session.call('create_plan', GRID);
    // Ask, and hang up without waiting for the answer.
    void session.client.callTool({ name: 'update_plan', arguments: { action: 'start_step', step_number: 1 } }).catch(() => undefined);
    expect(await disconnect(session)).toBe(0);
    const [log] = checkLogs(dataDir);
    expect(log!.problems).toEqual([]);
    expect(readFileSync(join(dataDir, 'sessions', log!.id, 'events.jsonl'), 'utf8').endsWith('\n')).toBe(true);
    expect(existsSync(join(dataDir, 'sessions', `${log!.id}.lock`))).toBe(false);
  });
});

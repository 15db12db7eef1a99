import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, connectMcp, killAllCli, requireBuiltCli, startCli } from '../../../test-support/main/cli-harness';
import { checkLogs, kill, killAllLaunched, launch, requireBuiltShell, type RunningShell } from '../../../test-support/main/kill-harness';
import { until } from '../../../test-support/main/until';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../shared/contract';

/**
 * Two processes on one data folder (docs/contract.md §7): the web shell (the app, as tests run it) and
 * `waypoint mcp` / `waypoint run`. Each chat's log has one writer; the app follows the others live,
 * refuses to write what another process writes, forwards Stop, and takes over a chat whose
 * writer died.
 */
// Not a real key (the scripted server takes any); short enough not to look like one in a secret scan.
const KEY = 'sk-ant-test-shared';
let root: string;
let server: ScriptedServer;

beforeAll(async () => {
  requireBuiltShell();
  requireBuiltCli();
  root = mkdtempSync(join(tmpdir(), 'waypoint-shared-'));
  server = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
});
afterEach(() => {
  killAllLaunched();
  killAllCli();
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
function folders(): { dataDir: string; workspace: string } {
  n++;
  const workspace = join(root, `ws-${n}`);
  mkdirSync(workspace);
  return { dataDir: join(root, `data-${n}`), workspace };
}

/** Waits until an event the shell received matches. */
async function seen(shell: RunningShell, match: (event: WaypointEvent) => boolean, what: string, timeoutMs = 10_000): Promise<WaypointEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = shell.events.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the web shell never saw ${what}; it saw: ${shell.events.map((e) => e.type).join(', ')}\n${shell.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}


describe('one data folder, two processes', { timeout: 60_000 }, () => {
  it('the app and an MCP server write at once: the app follows the MCP chat live and never writes it while it is held', async () => {
    const { dataDir, workspace } = folders();
    const shell = await launch(dataDir, workspace, server.url, KEY);
    const mcp = await connectMcp(dataDir, 'claude-code');
    try {
      const own = (await shell.call('newSession', {})) as { id: string };
      await shell.call('sendMessage', { sessionId: own.id, text: 'First message in the app' });
      await mcp.call('create_plan', { goal: 'Ship the release', steps: [{ step_number: 1, description: 'Bump' }, { step_number: 2, description: 'Publish' }] });
      await shell.call('sendMessage', { sessionId: own.id, text: 'Second message in the app' }).catch(() => undefined);

      const listed = (await seen(shell, (e) => e.type === 'session_updated' && e.session.title === 'claude-code: Ship the release', 'the MCP chat listed')) as Extract<WaypointEvent, { type: 'session_updated' }>;
      const mcpChat = listed.session.id;
      await mcp.call('update_plan', { action: 'start_step', step_number: 1 });
      await seen(shell, (e) => e.type === 'plan_updated' && e.sessionId === mcpChat && e.plan.steps[0]?.status === 'in_progress', 'step 1 start live');
      const snapshot = (await shell.call('getSession', { sessionId: mcpChat })) as { plan: { version: number }; transcript: Array<{ kind: string }> };
      expect(snapshot.plan.version).toBe(2);

      // The app may not write a chat the MCP server writes: it says who does.
      await expect(shell.call('renameSession', { sessionId: mcpChat, title: 'Mine now' })).rejects.toThrow(/being written by waypoint mcp \(claude-code\), pid \d+/);
      await expect(shell.call('sendMessage', { sessionId: mcpChat, text: 'hi' })).rejects.toThrow(/being written by waypoint mcp/);
      // Reading it is no writing: the export reads its log while the MCP server writes it.
      const exported = (await shell.call('exportChat', { sessionId: mcpChat })) as { markdown: string };
      expect(exported.markdown).toContain('Ship the release');
      // The window is told who writes it; a process verifiably running here is not offered for takeover.
      expect(await shell.call('getChatWriter', { sessionId: mcpChat })).toMatchObject({ writer: { holder: 'waypoint mcp (claude-code)', state: 'running' } });
      // Stop goes to the MCP server, which runs nothing: the answer says so instead of "stopped".
      expect(await shell.call('stop', { sessionId: mcpChat })).toEqual({ stopped: false, reason: 'Nothing was running in this chat.' });

      await mcp.call('update_plan', { action: 'complete_step', step_number: 1, result: 'done' });
      await seen(shell, (e) => e.type === 'plan_updated' && e.sessionId === mcpChat && e.plan.version === 3, 'v3 live');
      await mcp.close();
      await mcp.exited;

      // Let go: now the app may write it, and gives it back once idle, so the client can go on.
      await shell.call('renameSession', { sessionId: mcpChat, title: 'claude-code: Ship the release (checked)' });
      const lock = join(dataDir, 'sessions', `${mcpChat}.lock`);
      await until(() => !existsSync(lock), 'the app to give the idle chat back', 10_000, 20);
      const again = await connectMcp(dataDir, 'claude-code');
      expect((await again.call('update_plan', { action: 'start_step', step_number: 2 })).text).toMatch(/step 2 started/);
      await seen(shell, (e) => e.type === 'plan_updated' && e.sessionId === mcpChat && e.plan.version === 4, 'v4 from the restarted server');
      await again.close();

      const logs = checkLogs(dataDir);
      expect(logs).toHaveLength(2);
      expect(logs.flatMap((l) => l.problems)).toEqual([]);
      const followed = logs.find((l) => l.id === mcpChat)!;
      expect(followed.chat.summary.title).toBe('claude-code: Ship the release (checked)');
      expect(followed.chat.plan?.version).toBe(4);
      const seqs = followed.read.records.map((r) => r.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i)); // one numbering across three writers
    } finally {
      await mcp.close().catch(() => undefined);
      await kill(shell);
    }
  });

  it('Stop in the app stops a headless run in another process; a run killed mid-way is taken over and offers Resume', async () => {
    const { dataDir, workspace } = folders();
    const gated = await startScriptedServer({ scenario: { ...plansStructured, gated: true } });
    const gatedAgain = await startScriptedServer({ scenario: { ...plansStructured, gated: true } });
    const shell = await launch(dataDir, workspace, server.url, KEY);
    try {
      const run = startCli(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir], cliEnv(gated.url));
      await gated.release(1);
      const running = (await seen(shell, (e) => e.type === 'plan_updated' && e.plan.goal.startsWith('Create 3x3'), 'the headless run\'s plan')) as Extract<WaypointEvent, { type: 'plan_updated' }>;
      expect(await shell.call('stop', { sessionId: running.sessionId })).toEqual({ stopped: true });
      const stopped = await run.done;
      expect(stopped.code).toBe(1);
      expect(stopped.stdout).toContain('The run was stopped.');
      await seen(shell, (e) => e.type === 'transcript_item' && e.sessionId === running.sessionId && e.item.kind === 'notice' && e.item.code === 'stopped', 'the stop notice');

      // Again, and this time the run's process is killed: the app closes the run as a restart would.
      // (A fresh server: the request Stop cut off is still held at the first one's gate.)
      const second = startCli(['run', 'Create a structural grid', '--workspace', workspace, '--data-dir', dataDir], cliEnv(gatedAgain.url));
      await gatedAgain.release(2);
      await second.waitFor(/now: step 1 /);
      const secondPlan = (await seen(shell, (e) => e.type === 'plan_updated' && e.sessionId !== running.sessionId, 'the second run')) as Extract<WaypointEvent, { type: 'plan_updated' }>;
      const chatId = secondPlan.sessionId;
      second.child.kill('SIGKILL');
      await second.done;
      await seen(shell, (e) => e.type === 'transcript_item' && e.sessionId === chatId && e.item.kind === 'notice' && e.item.code === 'interrupted', 'the interrupted notice');
      expect(shell.output()).toMatch(/was left locked by waypoint run, pid \d+, which is no longer running/);
      const snapshot = (await shell.call('getSession', { sessionId: chatId })) as { session: { interrupted?: boolean }; runState: { status: string } };
      expect(snapshot.session.interrupted).toBe(true);
      expect(snapshot.runState.status).toBe('idle');
      expect(checkLogs(dataDir).flatMap((l) => l.problems)).toEqual([]);
    } finally {
      await kill(shell);
      await gated.close();
      await gatedAgain.close();
    }
  });
});

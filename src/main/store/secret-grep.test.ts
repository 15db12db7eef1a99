import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import type { ScriptedTurn } from '../../../test-support/scripted-api/scenario';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import { killAllLaunched, launch, requireBuiltShell } from '../../../test-support/main/kill-harness';

/** The API key must never reach a file under the data dir, nor the shell's stdout/stderr. */
const KEY = 'waypoint-test-DISTINCTIVE-grep-me-7f3a9c2e';

let root: string;
let server: ScriptedServer;
beforeAll(async () => {
  requireBuiltShell();
  root = await mkdtemp(join(tmpdir(), 'waypoint-secret-'));
  // A whole planned task, commands that print the environment (the key's most direct way out),
  // then a rejected key (an auth error is where a key most often leaks).
  const printing: ScriptedTurn = {
    kind: 'tool_use',
    text: 'Let me look at the environment.',
    calls: [
      { name: 'run_command', input: { command: 'printenv' } },
      { name: 'run_command', input: { command: 'env | sort > env.txt; cat /proc/self/environ | tr "\\0" "\\n" > environ.txt' } },
      { name: 'run_command', input: { command: 'echo "$ANTHROPIC_API_KEY" "$ANTHROPIC_AUTH_TOKEN" > key.txt; set > set.txt' } },
    ],
  };
  server = await startScriptedServer({
    scenario: { ...plansStructured, turns: [...plansStructured.turns, printing, { kind: 'text', text: 'Printed.' }, { kind: 'fault', fault: 'unauthorized' }] },
  });
});
afterAll(async () => {
  killAllLaunched();
  await server.close();
  await rm(root, { recursive: true, force: true });
});

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('the API key stays secret', () => {
  it('appears in no file written under the data dir and nowhere in the output of the web shell', async () => {
    const dataDir = join(root, 'data');
    const workspace = join(root, 'workspace');
    await mkdir(workspace);
    const shell = await launch(dataDir, workspace, server.url, KEY);
    const { id } = (await shell.call('newSession', {})) as { id: string };
    const idle = (n: number) =>
      expect.poll(() => shell.events.filter((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(n);
    // Commands run without asking, so nothing stands between them and the environment but its scrubbing.
    await shell.call('setSettings', { patch: { autoApproveCommands: true } });
    await shell.call('sendMessage', { sessionId: id, text: 'Create a structural grid' });
    await idle(1);
    await shell.call('sendMessage', { sessionId: id, text: 'Print the environment' });
    await idle(2);
    await shell.call('sendMessage', { sessionId: id, text: 'One more thing' });
    await idle(3);
    await shell.call('setSettings', { patch: { maxRetries: 3 } });
    const exited = new Promise((r) => shell.child.once('exit', r));
    shell.child.kill('SIGTERM');
    await exited;

    const files = [...(await allFiles(dataDir)), ...(await allFiles(workspace))];
    // The run really wrote what we grep: settings, the index, the chat log with the plan and the auth error.
    expect(files.map((f) => f.slice(dataDir.length))).toEqual(expect.arrayContaining(['/settings.json', '/sessions/index.json', `/sessions/${id}/events.jsonl`]));
    const log = await readFile(join(dataDir, 'sessions', id, 'events.jsonl'), 'utf8');
    expect(log).toContain('"type":"plan"');
    expect(log).toMatch(/"code":"auth"/);
    // The commands really ran and printed an environment (PATH is there; the key is not).
    expect(log).toMatch(/\\nPATH=\//);
    expect(files.map((f) => f.slice(workspace.length))).toEqual(expect.arrayContaining(['/env.txt', '/environ.txt', '/key.txt', '/set.txt']));
    expect(await readFile(join(workspace, 'env.txt'), 'utf8')).toMatch(/^PATH=/m);
    // Nor did the key travel back to the API in a tool result.
    for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain(KEY);
    for (const file of files) expect(await readFile(file, 'utf8'), file).not.toContain(KEY);
    expect(shell.output().length).toBeGreaterThan(0);
    expect(shell.output()).not.toContain(KEY);
    // Nor a recognisable part of it.
    expect(shell.output() + log).not.toContain(KEY.slice(-12));
    expect(JSON.stringify(shell.events)).not.toContain(KEY);
  }, 60_000);
});

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import { killAllLaunched, launch, requireBuiltShell } from './kill-harness';

/** The API key must never reach a file under the data dir, nor the shell's stdout/stderr. */
const KEY = 'waypoint-test-DISTINCTIVE-grep-me-7f3a9c2e';

let root: string;
let server: ScriptedServer;
beforeAll(async () => {
  requireBuiltShell();
  root = await mkdtemp(join(tmpdir(), 'waypoint-secret-'));
  // A whole planned task, then a rejected key (an auth error is where a key most often leaks).
  server = await startScriptedServer({ scenario: { ...plansStructured, turns: [...plansStructured.turns, { kind: 'fault', fault: 'unauthorized' }] } });
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
    const shell = await launch(dataDir, root, server.url, KEY);
    const { id } = (await shell.call('newSession', {})) as { id: string };
    const idle = (n: number) =>
      expect.poll(() => shell.events.filter((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(n);
    await shell.call('sendMessage', { sessionId: id, text: 'Create a structural grid' });
    await idle(1);
    await shell.call('sendMessage', { sessionId: id, text: 'One more thing' });
    await idle(2);
    await shell.call('setSettings', { patch: { maxRetries: 3 } });
    const exited = new Promise((r) => shell.child.once('exit', r));
    shell.child.kill('SIGTERM');
    await exited;

    const files = await allFiles(dataDir);
    // The run really wrote what we grep: settings, the index, the chat log with the plan and the auth error.
    expect(files.map((f) => f.slice(dataDir.length))).toEqual(expect.arrayContaining(['/settings.json', '/sessions/index.json', `/sessions/${id}/events.jsonl`]));
    const log = await readFile(join(dataDir, 'sessions', id, 'events.jsonl'), 'utf8');
    expect(log).toContain('"type":"plan"');
    expect(log).toMatch(/"code":"auth"/);
    for (const file of files) expect(await readFile(file, 'utf8'), file).not.toContain(KEY);
    expect(shell.output().length).toBeGreaterThan(0);
    expect(shell.output()).not.toContain(KEY);
    // Nor a recognisable part of it.
    expect(shell.output() + log).not.toContain(KEY.slice(-12));
    expect(JSON.stringify(shell.events)).not.toContain(KEY);
  }, 60_000);
});

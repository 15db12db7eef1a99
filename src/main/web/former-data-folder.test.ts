import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, killAllCli, requireBuiltCli, runCli, startCli } from '../../../test-support/main/cli-harness';
import { frameCollector, resultFor, wsConnect } from '../../../test-support/main/web-test-client';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';

/**
 * The web shell used to keep its chats in a folder of its own (~/.local/share/waypoint); it now
 * shares the desktop app's. A user who made a chat in the browser before starts the built web
 * shell as the README says, with no --data-dir, and finds that chat listed, told once on stderr.
 */
const WEB_JS = resolve('out/main/web.js');
let server: ScriptedServer;
let root: string;

beforeAll(async () => {
  requireBuiltCli();
  server = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  root = mkdtempSync(join(tmpdir(), 'waypoint-former-folder-'));
});
afterAll(async () => {
  killAllCli();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')("the web shell's former data folder", { timeout: 90_000 }, () => {
  it('brings its chats into the shared folder once, and the web shell lists them', async () => {
    const xdgData = join(root, 'xdg-data');
    const xdgConfig = join(root, 'xdg-config');
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    // A chat made where the web shell kept its data before.
    const former = join(xdgData, 'waypoint');
    const made = await runCli(['run', 'Hello from the browser days', '--workspace', workspace, '--data-dir', former], cliEnv(server.url));
    expect(made.code).toBe(0);

    const env = cliEnv(server.url, { XDG_DATA_HOME: xdgData, XDG_CONFIG_HOME: xdgConfig });
    const shell = startCli(['--port', '0'], env, [process.execPath, WEB_JS]);
    await shell.waitFor(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/, 'stdout', 30_000);
    const shared = join(xdgConfig, 'Waypoint');
    expect(shell.stderr()).toContain(`waypoint: copied 1 chat from the web shell's former data folder (${former}) into the shared one (${shared}); the former folder is left as it was.\n`);
    const url = new URL(/http:\/\/\S+/.exec(shell.stdout())![0]);
    const outcome = await wsConnect(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, { origin: url.origin });
    if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
    const frames = frameCollector(outcome.socket);
    outcome.socket.send(JSON.stringify({ id: 1, call: 'listSessions', input: {} }));
    const listed = await frames.next(resultFor(1), 15_000);
    expect(JSON.stringify(listed)).toContain('Hello from the browser days');
    outcome.socket.close();
    shell.child.kill('SIGTERM');
    await shell.done;

    // A second start copies nothing and says nothing of it.
    const again = startCli(['--port', '0'], env, [process.execPath, WEB_JS]);
    await again.waitFor(/http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/, 'stdout', 30_000);
    expect(again.stderr()).not.toContain('copied');
    again.child.kill('SIGTERM');
    await again.done;
  });
});

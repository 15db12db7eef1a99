import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHandedOver } from '../common/secret-names';

/**
 * The desktop app started with a key in its environment: the built main (against the electron
 * stand-in, in a real process: test-support/electron-main-process.ts) starts the app again
 * without it; only that second process takes the lock and opens the window, and the first
 * leaves with its exit code.
 */
const KEY = 'sk-ant-test-relaunch';
let dataDir: string;
beforeAll(() => {
  if (!existsSync(resolve('out/main/index.js'))) throw new Error('out/main/index.js is missing: build first with "npx electron-vite build".');
  dataDir = mkdtempSync(join(tmpdir(), 'waypoint-desktop-relaunch-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Report {
  role: string;
  pid: number;
  ppid: number;
  windows: number;
  environ: string[];
  code?: number;
  settings?: unknown;
}

describe.runIf(process.platform === 'linux')('desktop app: start without secrets in the environment', () => {
  it('the window is created only in the process started again, which has no key in its environment; the launcher leaves with its code', async () => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !isHandedOver(name)) env[name] = value;
    Object.assign(env, { ANTHROPIC_API_KEY: KEY, GITHUB_TOKEN: 'ghp-test-desktop-77', WAYPOINT_DATA_DIR: dataDir });
    delete env.ELECTRON_RENDERER_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', resolve('test-support/electron-main-process.ts')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((ok) => child.once('close', ok));
    const reports = out.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Report);
    expect(reports.map((r) => r.role), err).toEqual(['window', 'launcher']);
    const [window, launcher] = reports as [Report, Report];
    expect(launcher.pid).toBe(child.pid);
    expect(launcher.windows).toBe(0);
    expect(window.ppid).toBe(child.pid);
    expect(window.windows).toBe(1);
    expect(window.environ.join('\n')).not.toContain(KEY);
    expect(window.environ.join('\n')).not.toContain('ghp-test-desktop-77');
    // The key still reached the app's services, from memory: Settings says it came from the environment.
    expect(JSON.stringify(window.settings)).toMatch(/"apiKey":\{"hasApiKey":true,"source":"env"\}/);
    expect(launcher.code).toBe(3);
    expect(code).toBe(3);
  }, 60_000);
});

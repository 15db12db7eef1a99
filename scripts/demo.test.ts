import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_JS } from '../test-support/scenarios/tools-workspace';
import { buildIfStale } from './build-if-stale.mjs';

// `npm run demo` leaves nothing behind: its data and workspace folders go on Ctrl+C, on SIGTERM
// and when the web shell fails to start. Each run gets a private TMPDIR to look into.

const root = fileURLToPath(new URL('../', import.meta.url));
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
beforeAll(() => {
  expect(buildIfStale(root)).not.toBe('failed');
}, 180_000);

function startDemo(args: string[]) {
  const tmp = mkdtempSync(join(tmpdir(), 'wp-demo-test-'));
  temps.push(tmp);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', ...args], {
    cwd: root,
    env: { ...process.env, TMPDIR: tmp, WAYPOINT_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => {
      if (output.includes('Open the URL above')) resolve();
    });
    void exited.then(() => reject(new Error(`demo exited early:\n${output}`)));
  });
  ready.catch(() => undefined); // awaited only by the tests that expect the demo to come up
  return { child, tmp, exited, ready, output: () => output };
}

const demoFolders = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith('waypoint-demo-'));

describe('npm run demo', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`removes its data and workspace folders on ${signal}`, async () => {
      const demo = startDemo(['--scenario=tools-edit']);
      await demo.ready;
      expect(demo.output()).toMatch(/http:\/\/127\.0\.0\.1:\d+\/\?token=/);
      expect(demo.output()).toContain('The workspace holds src/app.js.');
      const folders = demoFolders(demo.tmp);
      expect(folders).toHaveLength(2);
      const workspace = folders.find((name) => name.startsWith('waypoint-demo-ws-'))!;
      expect(readFileSync(join(demo.tmp, workspace, 'src', 'app.js'), 'utf8')).toBe(APP_JS);
      demo.child.kill(signal);
      expect(await demo.exited).toBe(0);
      expect(demoFolders(demo.tmp)).toEqual([]);
    }, 60_000);
  }

  it('removes them when the web shell cannot start, and exits with its code', async () => {
    const demo = startDemo(['--port', 'not-a-port']);
    expect(await demo.exited).not.toBe(0);
    expect(demo.output()).toContain('--port');
    expect(existsSync(demo.tmp)).toBe(true);
    expect(demoFolders(demo.tmp)).toEqual([]);
  }, 60_000);
});

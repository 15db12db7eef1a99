import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The web shell started as its bin starts it (node --import tsx), with a home of its own and no
 * key: like `waypoint run`, it says once on stderr, before its URL line, when Waypoint's data
 * folder lies inside the workspace (file tools stay out of it; commands Claude runs do not).
 */
const WEB = resolve('src/main/web/web-entry.ts');
const started: ChildProcess[] = [];
const made: string[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** Starts the shell and resolves with its stderr once it printed its URL. */
function startShell(workspace: string, dataDir: string): Promise<string> {
  const env = { PATH: process.env.PATH ?? '', HOME: tempDir('wp-web-home-') };
  const child = spawn(process.execPath, ['--import', 'tsx', WEB, '--port', '0', '--workspace', workspace, '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
      if (/Waypoint web shell: http/.test(stdout)) done(stderr);
    });
    child.once('close', (code) => fail(new Error(`the web shell ended (${code}) before its URL line:\n${stdout}\n${stderr}`)));
  });
}

describe('web shell: a data folder inside the workspace is said at start', () => {
  it('one note line on stderr, naming the folder', { timeout: 60_000 }, async () => {
    const workspace = tempDir('wp-web-ws-');
    const inside = join(workspace, '.waypoint-data');
    mkdirSync(inside);
    const stderr = await startShell(workspace, inside);
    const notes = stderr.split('\n').filter((line) => line.includes('inside the workspace'));
    expect(notes).toEqual([`waypoint: note: Waypoint's data folder (${inside}) is inside the workspace; file tools can't touch it, but commands Claude runs can.`]);
  });

  it('no note when the data folder is elsewhere', { timeout: 60_000 }, async () => {
    const stderr = await startShell(tempDir('wp-web-ws-'), tempDir('wp-web-data-'));
    expect(stderr).not.toContain('inside the workspace');
  });
});

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { atLeast, electronInstalled, prepareDesktopStart, requiredNode } from './desktop-start.mjs';

// `npm start` on a fresh clone: the prestart step checks Node and fetches the Electron binary,
// and says in one line what to do when either is missing. The start path runs for real, as a
// child process, in a copy of the project whose electron package has no binary.

const root = fileURLToPath(new URL('../', import.meta.url));
const realElectron = join(root, 'node_modules', 'electron');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh clone as far as the start path cares: the script, and electron as `npm ci` leaves it (no dist/, no path.txt). */
function freshClone(electronEngines?: string): { dir: string; electronDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wp-fresh-clone-'));
  temps.push(dir);
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(root, 'scripts', 'desktop-start.mjs'), join(dir, 'scripts', 'desktop-start.mjs'));
  const electronDir = join(dir, 'node_modules', 'electron');
  mkdirSync(electronDir, { recursive: true });
  for (const file of ['install.js', 'checksums.json', 'index.js']) copyFileSync(join(realElectron, file), join(electronDir, file));
  const electronPkg = JSON.parse(readFileSync(join(realElectron, 'package.json'), 'utf8')) as { engines: { node: string } };
  if (electronEngines) electronPkg.engines.node = electronEngines;
  writeFileSync(join(electronDir, 'package.json'), JSON.stringify(electronPkg));
  // electron's installer and its downloader, as npm hoists them (their own imports resolve from the real folder).
  for (const dep of ['@electron', '@electron-internal']) symlinkSync(join(root, 'node_modules', dep), join(dir, 'node_modules', dep));
  return { dir, electronDir };
}

/** A port nothing listens on: "no network" for the download. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function runStart(dir: string, env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.ELECTRON_OVERRIDE_DIST_PATH;
  delete childEnv.electron_use_remote_checksums;
  return spawnSync(process.execPath, [join(dir, 'scripts', 'desktop-start.mjs')], { cwd: dir, env: childEnv, encoding: 'utf8', timeout: 60_000 });
}

describe('npm start on a fresh machine', () => {
  it('runs the check before the build, and npm ci never downloads anything', () => {
    expect(pkg.scripts.prestart).toBe('node scripts/desktop-start.mjs');
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook]).toBeUndefined();
  });

  it('says which Node the desktop app needs: engines, the check and Electron agree', () => {
    const minimum = requiredNode(realElectron);
    expect(minimum).toBe('22.12.0');
    expect(pkg.engines.node).toBe(`>=${minimum}`);
    expect(atLeast('22.12.0', minimum)).toBe(true);
    expect(atLeast('v24.1.0', minimum)).toBe(true);
    expect(atLeast('22.11.9', minimum)).toBe(false);
    expect(atLeast('20.20.2', minimum)).toBe(false);
  });

  it('on an older Node: one line naming the Node it needs and the browser version, and no download', () => {
    const { dir } = freshClone('>= 99.0.0');
    const cache = join(dir, 'electron-cache');
    const result = runStart(dir, { electron_config_cache: cache });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `waypoint: the desktop app needs Node 99.0.0 or newer, and this is Node ${process.versions.node}: install a current Node (nodejs.org, or \`nvm install 22\`) and run npm start again, or use the browser version, which runs on this Node: npm run web`,
    );
    expect(result.stdout).not.toContain('Downloading');
    expect(existsSync(cache)).toBe(false);
  });

  it('with no binary and no network: one clear line with what to do, no stack trace, nothing half-installed', async () => {
    const { dir, electronDir } = freshClone('>= 1.0.0');
    const port = await closedPort();
    const result = runStart(dir, { ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, electron_config_cache: join(dir, 'electron-cache') });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('Downloading Electron 45.4.1 for the desktop app');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^waypoint: could not download Electron 45\.4\.1 \(.+\): check your internet connection \(or set ELECTRON_MIRROR\) and run npm start again, or, offline, use the browser version: npm run web$/,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(join(electronDir, 'path.txt'))).toBe(false);
    expect(electronInstalled(electronDir)).toBe(false);
  });

  it('an installed binary is used as it is: no download, no message', async () => {
    const { electronDir } = freshClone('>= 1.0.0');
    mkdirSync(join(electronDir, 'dist'));
    writeFileSync(join(electronDir, 'dist', 'version'), '45.4.1');
    writeFileSync(join(electronDir, 'dist', 'electron'), '');
    writeFileSync(join(electronDir, 'path.txt'), 'electron');
    expect(electronInstalled(electronDir)).toBe(true);
    const logged: string[] = [];
    const problem = await prepareDesktopStart({ nodeVersion: '22.12.0', electronDir, env: {}, log: (line: string) => logged.push(line) });
    expect(problem).toBeNull();
    expect(logged).toEqual([]);
  });
});

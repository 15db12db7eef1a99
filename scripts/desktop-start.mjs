#!/usr/bin/env node
// `npm start`'s prestart step: the desktop app needs a recent Node (Electron's own tooling) and
// the Electron binary, which Electron 45 no longer downloads at install time. Both are checked
// here, before the build, and each problem is one line that says what to do — never a stack
// trace. The download happens only here (never in `npm ci`), so CI and offline installs work.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const OFFLINE_HINT = 'npm run web';

/** The lowest Node Electron's package accepts ("engines": ">= 22.12.0"). */
export function requiredNode(electronDir) {
  const engines = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).engines?.node ?? '';
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(engines);
  return match ? match.slice(1).join('.') : '22.12.0';
}

/** a >= b for plain x.y.z versions. */
export function atLeast(version, minimum) {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** Installed as electron's install script leaves it: dist/version matches and path.txt names a binary that exists. */
export function electronInstalled(electronDir) {
  try {
    const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'));
    const installed = readFileSync(join(electronDir, 'dist', 'version'), 'utf8').trim().replace(/^v/, '');
    const binary = readFileSync(join(electronDir, 'path.txt'), 'utf8');
    return installed === version && existsSync(join(electronDir, 'dist', binary));
  } catch {
    return false;
  }
}

/** The first line of what electron's installer printed, without the "Error:" prefix. */
function reasonFrom(stderr) {
  const line = stderr.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('at ')) ?? 'unknown error';
  return line.replace(/^(\w*Error:\s*)+/, '').slice(0, 200);
}

/**
 * Runs electron's own installer (install.js: checksums, cache, path.txt) as a child, with its
 * output captured: on failure only the reason is shown.
 */
function runInstaller(electronDir, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ ok: false, reason: error.message }));
    child.on('close', (code) => resolve(code === 0 ? { ok: true } : { ok: false, reason: reasonFrom(stderr) }));
  });
}

/**
 * Everything `npm start` needs before it builds. Returns null when the desktop app can start,
 * or the one line to print.
 */
export async function prepareDesktopStart({ nodeVersion, electronDir, env = process.env, log = console.log }) {
  const minimum = requiredNode(electronDir);
  if (!atLeast(nodeVersion, minimum)) {
    return (
      `waypoint: the desktop app needs Node ${minimum} or newer, and this is Node ${nodeVersion.replace(/^v/, '')}: ` +
      `install a current Node (nodejs.org, or \`nvm install 22\`) and run npm start again, or use the browser version, which runs on this Node: ${OFFLINE_HINT}`
    );
  }
  if (electronInstalled(electronDir)) return null;
  const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'));
  log(`Downloading Electron ${version} for the desktop app (once, about 100 MB)…`);
  const result = await runInstaller(electronDir, env);
  if (result.ok && electronInstalled(electronDir)) return null;
  return (
    `waypoint: could not download Electron ${version} (${result.ok ? 'the download left no binary' : result.reason}): ` +
    `check your internet connection (or set ELECTRON_MIRROR) and run npm start again, or, offline, use the browser version: ${OFFLINE_HINT}`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const problem = await prepareDesktopStart({ nodeVersion: process.versions.node, electronDir });
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

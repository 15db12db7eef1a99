#!/usr/bin/env node
// `npm run web` and `npm run demo` build first, but only when the build is out of date: a
// fingerprint of every build input (path, size, mtime) and of the outputs is kept in
// out/.build-stamp.json. Any build made another way (npm test, npm start) changes the outputs'
// times, so it is never mistaken for this one. Checking takes milliseconds; a build, seconds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What the build reads: sources and the config that shapes them. Tests are not inputs. */
const INPUT_DIRS = ['src', 'resources'];
const INPUT_FILES = ['electron.vite.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** What the web shell and the desktop app load; all must exist for a build to count. */
export const OUTPUTS = ['out/main/web.js', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
export const STAMP = 'out/.build-stamp.json';
const IGNORED = /\.test\.tsx?$|(^|\/)test-support\//;

function walk(root, dir, out) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(root, rel, out);
    else if (entry.isFile() && !IGNORED.test(rel)) out.push(rel);
  }
}

function describeFile(root, rel) {
  try {
    const stat = statSync(join(root, rel));
    return `${rel}\t${stat.size}\t${stat.mtimeMs}`;
  } catch {
    return `${rel}\tmissing`;
  }
}

/** One hash over every input and output file's path, size and modification time. */
export function fingerprint(root) {
  const files = [...INPUT_FILES];
  for (const dir of INPUT_DIRS) walk(root, dir, files);
  files.sort();
  const hash = createHash('sha256');
  for (const rel of [...files, ...OUTPUTS]) hash.update(`${describeFile(root, rel)}\n`);
  return hash.digest('hex');
}

export function isFresh(root) {
  if (!OUTPUTS.every((rel) => existsSync(join(root, rel)))) return false;
  try {
    return JSON.parse(readFileSync(join(root, STAMP), 'utf8')).fingerprint === fingerprint(root);
  } catch {
    return false;
  }
}

function electronViteBuild(root) {
  const require = createRequire(join(root, 'package.json'));
  const bin = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  return spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: 'inherit' }).status === 0;
}

/** Builds when needed; returns 'fresh' (nothing to do), 'built', or 'failed'. */
export function buildIfStale(root, build = electronViteBuild) {
  if (isFresh(root)) return 'fresh';
  if (!build(root)) return 'failed';
  writeFileSync(join(root, STAMP), `${JSON.stringify({ fingerprint: fingerprint(root) })}\n`);
  return 'built';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const outcome = buildIfStale(root);
  if (outcome === 'fresh') console.log(`Build is up to date (${relative(process.cwd(), join(root, 'out')) || 'out'}/); not rebuilding.`);
  if (outcome === 'failed') process.exit(1);
}

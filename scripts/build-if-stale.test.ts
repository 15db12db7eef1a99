import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OUTPUTS, buildIfStale, isFresh } from './build-if-stale.mjs';

// `npm run web` builds once, and again only when a source or the build config changed.

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'wp-build-stamp-'));
  temps.push(root);
  for (const [rel, text] of Object.entries({
    'package.json': '{}',
    'package-lock.json': '{}',
    'tsconfig.json': '{}',
    'electron.vite.config.ts': 'export default {}',
    'src/main/web/web-entry.ts': 'console.log(1)',
    'src/renderer/src/App.tsx': 'export {}',
    'src/main/agent/loop.test.ts': 'test',
  })) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

/** Stands in for electron-vite: writes the outputs, counts its calls. */
function fakeBuild() {
  const calls: number[] = [];
  const build = (root: string) => {
    calls.push(Date.now());
    for (const rel of OUTPUTS) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), `built ${calls.length}`);
    }
    return true;
  };
  return { build, calls };
}

/** Moves a file's mtime, as an edit (or a rebuild) a second later would. */
function touch(root: string, rel: string, text?: string) {
  if (text !== undefined) writeFileSync(join(root, rel), text);
  const later = new Date(Date.now() + 5_000);
  utimesSync(join(root, rel), later, later);
}

describe('build-if-stale', () => {
  it('builds the first time, then not again while nothing changed', () => {
    const root = project();
    const { build, calls } = fakeBuild();
    expect(isFresh(root)).toBe(false);
    expect(buildIfStale(root, build)).toBe('built');
    expect(isFresh(root)).toBe(true);
    expect(buildIfStale(root, build)).toBe('fresh');
    expect(buildIfStale(root, build)).toBe('fresh');
    expect(calls).toHaveLength(1);
  });

  it('rebuilds after a source, a new file or the build config changed', () => {
    const root = project();
    const { build, calls } = fakeBuild();
    buildIfStale(root, build);
    touch(root, 'src/renderer/src/App.tsx', 'export const x = 1');
    expect(buildIfStale(root, build)).toBe('built');
    writeFileSync(join(root, 'src/main/web/new-file.ts'), '');
    expect(buildIfStale(root, build)).toBe('built');
    touch(root, 'electron.vite.config.ts');
    expect(buildIfStale(root, build)).toBe('built');
    expect(calls).toHaveLength(4);
  });

  it('a changed test file is not a reason to rebuild', () => {
    const root = project();
    const { build, calls } = fakeBuild();
    buildIfStale(root, build);
    touch(root, 'src/main/agent/loop.test.ts', 'changed');
    expect(buildIfStale(root, build)).toBe('fresh');
    expect(calls).toHaveLength(1);
  });

  it('a build made another way (npm test, npm start), or a missing output, is never taken for this one', () => {
    const root = project();
    const { build, calls } = fakeBuild();
    buildIfStale(root, build);
    touch(root, 'out/main/web.js', 'built by someone else');
    expect(buildIfStale(root, build)).toBe('built');
    rmSync(join(root, 'out/renderer'), { recursive: true });
    expect(buildIfStale(root, build)).toBe('built');
    expect(calls).toHaveLength(3);
  });

  it('a failed build leaves no stamp, so the next start tries again', () => {
    const root = project();
    expect(buildIfStale(root, () => false)).toBe('failed');
    const { build, calls } = fakeBuild();
    expect(buildIfStale(root, build)).toBe('built');
    expect(calls).toHaveLength(1);
  });

  it('npm run web and npm run demo go through it', () => {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { scripts: Record<string, string> };
    // …and then start the shell with its secrets moved out of the environment (bin/waypoint-launch, docs/security.md).
    expect(pkg.scripts.web).toBe('node scripts/build-if-stale.mjs && sh bin/waypoint-launch out/main/web.js');
    expect(pkg.scripts.demo).toBe('node scripts/build-if-stale.mjs && tsx scripts/demo.ts');
  });
});

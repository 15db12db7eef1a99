import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The built shells, started as a user starts them with `--data-dir /proc/self` (which used to
 * spin forever): one line on stderr, exit 1, nothing on stdout. Needs `npx electron-vite build`.
 */
const WEB_JS = resolve('out/main/web.js');
const CLI_JS = resolve('out/main/cli.js');

describe.skipIf(process.platform !== 'linux')('a data folder in /proc', () => {
  it.each([
    ['the web shell', [WEB_JS, '--port', '0', '--data-dir', '/proc/self']],
    ['waypoint run', [CLI_JS, 'run', 'x', '--workspace', '.', '--data-dir', '/proc/self']],
    ['waypoint mcp', [CLI_JS, 'mcp', '--data-dir', '/proc/self']],
  ])('is refused by %s with one line and exit 1', (_name, args) => {
    if (!existsSync(args[0]!)) throw new Error(`${args[0]} is missing: build first with "npx electron-vite build".`);
    // The generous timeout only keeps a regression (a spin) from hanging the suite.
    const result = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 30_000, env: { ...process.env, WAYPOINT_DATA_DIR: '' } });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('waypoint: data folder "/proc/self" is inside /proc, a system folder whose files are not files; choose a folder of your own.\n');
  }, 40_000);
});

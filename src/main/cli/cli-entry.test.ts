import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The real entry point, started as the bin starts it (node --import tsx), with no key to hand over. */
const CLI = resolve('src/main/cli/cli-entry.ts');

function cli(args: string[]): { status: number | null; stderr: string; stdout: string } {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'wp-cli-home-')) };
  const ran = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: ran.status, stderr: ran.stderr, stdout: ran.stdout };
}

describe('waypoint: error line', () => {
  it('strips terminal control sequences from outside text (an unknown command, a folder name) and keeps the words', () => {
    const unknown = cli(['\u001b]0;pwned\u0007run\u001b[2J\u009b31m']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe('waypoint: unknown command "run": use "waypoint run" or "waypoint mcp" (see waypoint --help).\n');

    const folder = cli(['run', 'task', '--workspace', '/nowhere/\u001b]52;c;cHduZWQ=\u0007x\rgone']);
    expect(folder.status).toBe(1);
    expect(folder.stderr).toMatch(/^waypoint: workspace "\/nowhere\/xgone" does not exist or is not a folder\.\n$/);
    expect(folder.stdout).toBe('');
  });
});

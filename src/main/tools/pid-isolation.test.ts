import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectIsolation, isolate, ISOLATION_VARIABLE } from './pid-isolation';
import { createWorkspaceTools } from './workspace/index';
import { expectOk, findTool, makeContext, makeWorkspace } from '../../../test-support/main/test-workspace';
import { callTool } from './define-tool';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A bwrap that exists but is refused, as where unprivileged user namespaces are turned off. */
function refusedBwrap(): string {
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-bwrap-'));
  dirs.push(dir);
  const path = join(dir, 'bwrap');
  writeFileSync(path, '#!/bin/sh\necho "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n');
  chmodSync(path, 0o755);
  return path;
}

describe.runIf(process.platform === 'linux')('PID isolation of what Waypoint starts (Linux)', () => {
  it('uses bubblewrap where it can make a PID namespace (CI installs it: .ci/run)', async () => {
    expect(existsSync('/usr/bin/bwrap') || existsSync('/bin/bwrap') || existsSync('/usr/local/bin/bwrap'), 'install bubblewrap').toBe(true);
    const logged: string[] = [];
    const isolation = await detectIsolation({ log: (m) => logged.push(m) });
    expect(isolation.kind).toBe('bwrap');
    expect(logged).toEqual([]);
    expect(isolate(isolation, { command: '/bin/sh', args: ['-c', 'true'] }).args).toEqual(expect.arrayContaining(['--unshare-pid', '--proc', '/proc', '--die-with-parent', '/bin/sh', '-c', 'true']));
  });

  it('a command sees only its own processes: none of Waypoint’s, so no other environment', async () => {
    const ws = makeWorkspace();
    try {
      const run = findTool(createWorkspaceTools(ws.root), 'run_command');
      const text = expectOk(await callTool(run, { command: 'echo "ppid=$PPID"; ls -d /proc/[0-9]* | wc -l' }, makeContext()));
      const seen = Number(/--- stdout ---\nppid=\d+\n\s*(\d+)/.exec(text)?.[1]);
      expect(text).toContain('ppid=1'); // bubblewrap's init, not Waypoint
      expect(seen).toBeLessThan(6);
      expect(readdirSync('/proc').filter((e) => /^\d+$/.test(e)).length).toBeGreaterThan(seen);
    } finally {
      ws.cleanup();
    }
  });

  it('bubblewrap installed but refused: commands run without it, and the log says so once, in words', async () => {
    const logged: string[] = [];
    const isolation = await detectIsolation({ bwrapPaths: [refusedBwrap()], log: (m) => logged.push(m) });
    expect(isolation.kind).toBe('none');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/bubblewrap is installed but could not start a command here \(bwrap: No permissions to create new namespace/);
    expect(logged[0]).toMatch(/can see Waypoint's other processes/);
    expect(isolate(isolation, { command: '/bin/sh', args: ['-c', 'true'] })).toEqual({ command: '/bin/sh', args: ['-c', 'true'] });
  });

  it('missing, or turned off: said once; other systems: no PID namespaces, nothing logged', async () => {
    const logged: string[] = [];
    expect((await detectIsolation({ bwrapPaths: ['/nonexistent/bwrap'], log: (m) => logged.push(m) })).kind).toBe('none');
    expect((await detectIsolation({ env: { [ISOLATION_VARIABLE]: 'off' }, log: (m) => logged.push(m) })).kind).toBe('none');
    expect(logged).toEqual([expect.stringMatching(/bwrap\) is not installed/), expect.stringMatching(new RegExp(`${ISOLATION_VARIABLE}=off`))]);
    expect((await detectIsolation({ platform: 'darwin', log: (m) => logged.push(m) })).kind).toBe('none');
    expect(logged).toHaveLength(2);
  });
});

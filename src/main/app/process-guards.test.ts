import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * In a real process: an exception thrown from a timer and a rejection nobody awaits are logged
 * (key blanked out) and reported to the user, and the process keeps running. Without the guards
 * Node ends the process at the first one.
 */
describe('process guards', () => {
  it('log and report an uncaught exception and an unhandled rejection; the process lives on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypoint-guards-'));
    try {
      const script = join(dir, 'guarded.mts');
      writeFileSync(
        script,
        `import { installProcessGuards } from ${JSON.stringify(resolve('src/main/app/process-guards.ts'))};
        installProcessGuards({ report: (m) => console.log('REPORT ' + m), secrets: () => ['waypoint-guard-secret-key'] });
        setTimeout(() => { throw new Error('boom with waypoint-guard-secret-key inside'); }, 10);
        setTimeout(() => { void Promise.reject(new Error('nobody awaited this')); }, 30);
        setTimeout(() => { console.log('STILL ALIVE'); process.exit(0); }, 300);`,
      );
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout).toContain('REPORT Waypoint hit an unexpected error (boom with [redacted] inside). It keeps running; the details are in its log.');
      expect(child.stdout).toContain('REPORT Waypoint hit an unexpected error (nobody awaited this).');
      expect(child.stdout).toContain('STILL ALIVE');
      expect(child.stderr).toMatch(/\[waypoint\] uncaught exception: Error: boom with \[redacted\] inside\n\s+at /);
      expect(child.stderr).toContain('[waypoint] unhandled promise rejection: Error: nobody awaited this');
      expect(child.stdout + child.stderr).not.toContain('waypoint-guard-secret-key');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});

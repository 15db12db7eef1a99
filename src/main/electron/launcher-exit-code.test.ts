import { constants } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { launcherExitCode } from './secret-relaunch';

vi.mock('electron', async () => (await import('../../../test-support/electron-stand-in')).electron);

// The desktop launcher leaves as the app it started did: its exit code, or the shell's 128 + N
// for a signal (Electron's app.exit takes a code only).
describe('launcherExitCode', () => {
  it('passes an exit code on, and tells every signal as 128 + its number', () => {
    expect(launcherExitCode({ code: 0, signal: null })).toBe(0);
    expect(launcherExitCode({ code: 3, signal: null })).toBe(3);
    for (const signal of ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGABRT', 'SIGKILL', 'SIGSEGV', 'SIGPIPE', 'SIGTERM'] as const) {
      expect(launcherExitCode({ code: null, signal }), signal).toBe(128 + constants.signals[signal]);
    }
  });
});

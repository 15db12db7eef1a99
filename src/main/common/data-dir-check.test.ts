import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataDirProblem } from './data-dir-check';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-datadir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('the data folder check', () => {
  it('accepts a folder, and a missing one under a folder (created on first use)', () => {
    expect(dataDirProblem(dir)).toBeNull();
    expect(dataDirProblem(join(dir, 'a', 'b'))).toBeNull();
  });

  it.each(['/proc/self', '/proc', '/sys/kernel', '/dev', '/dev/shm/waypoint-x'])('refuses %s: a system folder', (path) => {
    expect(dataDirProblem(path)).toMatch(/is inside \/(proc|sys|dev), a system folder/);
  });

  it('refuses a link into /proc', () => {
    symlinkSync('/proc/self', join(dir, 'link'));
    expect(dataDirProblem(join(dir, 'link'))).toMatch(/inside \/proc/);
    expect(dataDirProblem(join(dir, 'link', 'deeper'))).toMatch(/inside \/proc/);
  });

  it('refuses a FIFO, a file, and a path through a file', () => {
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    writeFileSync(join(dir, 'file'), 'x');
    expect(dataDirProblem(join(dir, 'fifo'))).toMatch(/is a pipe \(FIFO\), not a folder/);
    expect(dataDirProblem(join(dir, 'file'))).toMatch(/is a file, not a folder/);
    expect(dataDirProblem(join(dir, 'file', 'sub'))).toMatch(/cannot be created: ".*file" is a file/);
  });

  it('does not create anything', () => {
    mkdirSync(join(dir, 'x'));
    dataDirProblem(join(dir, 'x', 'new', 'deeper'));
    expect(execFileSync('ls', ['-A', join(dir, 'x')]).toString()).toBe('');
  });
});

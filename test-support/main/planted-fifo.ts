/**
 * Test support: FIFOs planted in the data folder, each with a "rescuer" that opens its other end
 * only after `rescueAfterMs` — so code that blocks on one is freed in the end (the test fails on
 * `rescued()` instead of hanging forever), and code that never blocks finishes while every
 * rescuer is still waiting. No timing is asserted: only whether a rescuer had to act.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface PlantedFifos {
  plant(path: string): void;
  /** The FIFOs whose rescuer already opened them: something was blocked on them. */
  rescued(): string[];
  dispose(): void;
}

export function plantedFifos(rescueAfterMs = 15_000): PlantedFifos {
  const rescuers: Array<{ path: string; child: ChildProcess; done: boolean }> = [];
  return {
    plant(path) {
      mkdirSync(dirname(path), { recursive: true });
      execFileSync('mkfifo', [path]);
      // O_RDWR opens a FIFO at once on Linux and counts as both ends: a blocked reader or writer goes on.
      const script = `setTimeout(() => { try { const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(path)}, 'r+'); fs.closeSync(fd); } catch {} process.exit(0); }, ${rescueAfterMs});`;
      const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
      const entry = { path, child, done: false };
      child.on('exit', () => (entry.done = true));
      rescuers.push(entry);
    },
    rescued: () => rescuers.filter((r) => r.done).map((r) => r.path),
    dispose() {
      for (const r of rescuers) if (!r.done) r.child.kill('SIGKILL');
      rescuers.length = 0;
    },
  };
}

export const hasMkfifo = process.platform !== 'win32' && (existsSync('/usr/bin/mkfifo') || existsSync('/bin/mkfifo'));

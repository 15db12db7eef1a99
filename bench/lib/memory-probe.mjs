// Preloaded into the web shell by bench/main-memory.ts (NODE_OPTIONS=--import): on SIGUSR2 it
// forces a full GC and writes process.memoryUsage() to WAYPOINT_BENCH_MEMORY_OUT, so the bench
// compares live memory at each sample point rather than whatever V8 has not collected yet.
import { writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
process.on('SIGUSR2', () => {
  gc();
  writeFileSync(process.env.WAYPOINT_BENCH_MEMORY_OUT, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
});

// Preloaded into the web shell by bench/main-memory.ts (NODE_OPTIONS=--import): on SIGUSR2 it
// forces full GCs and writes process.memoryUsage() to WAYPOINT_BENCH_MEMORY_OUT, so the bench
// compares live memory at each sample point rather than whatever V8 has not collected yet.
//
// Read right after one gc(), memory is not settled yet (issue 15 item 8 measured this): the GC
// sweeps and frees dead ArrayBuffers concurrently, so `external` and the old space still count
// what it found dead (up to +13 MB and +20 MB at 500 turns), and V8 hands freed pages back to
// the OS on a background thread, so RSS still holds them (up to +50 MB). A second gc() finishes
// the first one's sweeping; the short wait lets the pages go.
import { writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const SETTLE_MS = 250;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
process.on('SIGUSR2', () => {
  gc();
  gc();
  setTimeout(() => {
    writeFileSync(process.env.WAYPOINT_BENCH_MEMORY_OUT, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
  }, SETTLE_MS);
});

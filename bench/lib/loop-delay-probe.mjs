// Preloaded into the web shell by bench/many-chats.ts (NODE_OPTIONS=--import): main's event-loop
// delay, as perf_hooks sees it, and its CPU. Each SIGUSR2 writes the histogram since the last one to
// WAYPOINT_BENCH_LOOP_OUT and starts a new one, so the bench reads exactly the span it measures.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// 1 ms: each sample is the time between two 1 ms timers, so an idle loop reads ≈ 1 ms; a
// coarser resolution would add itself to every sample (10 ms reads ≈ 10 ms when idle).
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
let cpuFrom = process.cpuUsage();
const ms = (ns) => ns / 1e6;
process.on('SIGUSR2', () => {
  const cpu = process.cpuUsage(cpuFrom);
  cpuFrom = process.cpuUsage();
  const read = { cpuMs: (cpu.user + cpu.system) / 1000, count: histogram.count, p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) };
  histogram.reset();
  writeFileSync(process.env.WAYPOINT_BENCH_LOOP_OUT, JSON.stringify(read));
});

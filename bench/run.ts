import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { ensureBuilt } from './lib/build';
import type { Metric } from './lib/metric';
import { closeAllOnSignal } from './lib/scoped';
import { formatTable } from './lib/table';
import { BENCHES } from './registry';

/**
 * `npm run bench [-- --quick] [-- --only engine,prompt]`: runs the benchmarks one after another
 * (never in parallel: they measure time), prints the table and writes bench/results.json
 * (bench/results-quick.json for --quick). With --only, the other benchmarks' numbers already in
 * the file are kept, so one benchmark can be rerun on its own.
 */
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg ? (onlyArg.includes('=') ? onlyArg.split('=')[1]! : args[args.indexOf(onlyArg) + 1]!).split(',') : null;
const selected = BENCHES.filter((b) => !only || only.includes(b.name));
if (selected.length === 0) throw new Error(`No benchmark matches ${only?.join(',')}; known: ${BENCHES.map((b) => b.name).join(', ')}`);

const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? '?', loadAverage1m: loadavg()[0], node: process.version };
console.log(`[bench] ${quick ? 'quick' : 'full'} run of ${selected.map((b) => b.name).join(', ')} on ${machine.cpus}× ${machine.cpu}, load ${machine.loadAverage1m?.toFixed(1)}`);
if (selected.some((b) => b.browser)) ensureBuilt();

closeAllOnSignal();
const metrics: Metric[] = [];
for (const entry of selected) {
  const started = Date.now();
  console.log(`[bench] ${entry.name} …`);
  try {
    const bench = await entry.load();
    metrics.push(...(await bench({ quick })));
  } catch (error) {
    console.error(`[bench] ${entry.name} failed:`, error);
    // One broken benchmark must not hide the others' numbers.
    metrics.push({ bench: entry.name, metric: 'FAILED', value: error instanceof Error ? error.message.split('\n')[0]! : String(error), unit: '', target: 'runs', met: false, method: 'the benchmark threw' });
  }
  console.log(`[bench] ${entry.name} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

console.log(`\n${formatTable(metrics)}\n`);
const file = quick ? 'bench/results-quick.json' : 'bench/results.json';
const ran = new Set(selected.map((b) => b.name));
const kept = only && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { metrics: Metric[] }).metrics.filter((m) => !ran.has(m.bench)) : [];
const all = [...kept, ...metrics];
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), quick, ran: [...ran], machine: { ...machine, loadAverageAfter1m: loadavg()[0] }, metrics: all }, null, 2)}\n`);
const missed = all.filter((m) => m.met === false).length;
console.log(`[bench] wrote ${file}: ${all.length} numbers, ${missed} target(s) missed`);


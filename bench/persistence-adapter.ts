import { spawn } from 'node:child_process';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';

const m = metricsFor('persistence');

/**
 * bench/persistence.ts (another engineer's) is a script that prints one line per result. It runs
 * in its own process (its kill runs must not share ours), with no kill runs: those are a
 * crash-safety check, not a number. Each "label: numbers" line becomes a row; the load line is
 * held to its target (open a 10,000-event chat in < 200 ms).
 */
export const persistenceBench: Benchmark = async () => {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/persistence.ts', '--kills', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`bench/persistence.ts exited ${code}: ${out.slice(-500)}`))));
  });
  const metrics: Metric[] = [];
  for (const line of output.split('\n')) {
    // "label: p50 …" / "label: median …" (labels may hold a colon of their own).
    const cut = line.search(/:\s+(p50|median) /);
    if (!/^(append|load) /.test(line.trim()) || cut < 0) continue;
    const label = line.slice(0, cut).trim();
    const value = line.slice(cut + 1).trim();
    const load = /^load/.test(label) ? /median ([\d.]+) ms/.exec(value) : null;
    const target = load ? { text: '< 200 ms', met: Number(load[1]) < 200 } : undefined;
    metrics.push(m(label, value, '', 'bench/persistence.ts (session log writer/reader/replay, real files in a temp dir); see its header', target));
  }
  if (metrics.length === 0) throw new Error(`bench/persistence.ts printed no results:\n${output.slice(-500)}`);
  return metrics;
};

/**
 * One number a benchmark reports: what, how much, the target it is held to, and how it was
 * measured. `met` is null when the metric is informational (no target).
 */
export interface Metric {
  bench: string;
  metric: string;
  value: number | string;
  unit: string;
  target: string | null;
  met: boolean | null;
  method: string;
}

export interface BenchOptions {
  /** Small sizes that finish in seconds (smoke runs in CI). */
  quick: boolean;
}

export type Benchmark = (options: BenchOptions) => Promise<Metric[]>;

/** Builds metrics for one benchmark without repeating its name. */
export function metricsFor(bench: string) {
  return (metric: string, value: number | string, unit: string, method: string, target?: { text: string; met: boolean }): Metric => ({
    bench,
    metric,
    value: typeof value === 'number' ? round(value) : value,
    unit,
    target: target?.text ?? null,
    met: target ? target.met : null,
    method,
  });
}

export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 1 : abs >= 1 ? 2 : 4;
  return Number(value.toFixed(digits));
}

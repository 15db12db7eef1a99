/** Percentiles by nearest rank on a sorted copy: p(50) is the median, p(99) the 99th. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Wall-clock milliseconds with sub-ms resolution, comparable with a page's timeOrigin + now(). */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

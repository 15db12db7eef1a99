import { describe, expect, it } from 'vitest';
import { engineBench } from './engine';
import type { Metric } from './lib/metric';
import { formatMarkdown, formatTable } from './lib/table';
import { promptEconomicsBench } from './prompt-economics';

// Not a timing test: proves the pure benchmarks still run against today's code (quick sizes)
// and report well-formed numbers. The numbers themselves come from `npm run bench`.

function expectWellFormed(metrics: Metric[], bench: string): void {
  expect(metrics.length).toBeGreaterThan(0);
  for (const m of metrics) {
    expect(m.bench).toBe(bench);
    expect(m.metric.length).toBeGreaterThan(0);
    expect(m.method.length).toBeGreaterThan(10);
    if (typeof m.value === 'number') expect(Number.isFinite(m.value)).toBe(true);
    expect(m.met === null || typeof m.met === 'boolean').toBe(true);
    expect(m.target === null).toBe(m.met === null);
  }
}

describe('benchmarks (quick mode)', () => {
  it('engine: every dialect at 10 and 100 steps, and the cycle check', async () => {
    const metrics = await engineBench({ quick: true });
    expectWellFormed(metrics, 'engine');
    for (const dialect of ['structured', 'checklist', 'wbs', 'session']) {
      for (const size of [10, 100]) expect(metrics.some((m) => m.metric === `${dialect} @${size} steps, µs/call p50`)).toBe(true);
    }
    const withTargets = metrics.filter((m) => m.target !== null);
    expect(withTargets.map((m) => m.metric)).toEqual(['structured', 'checklist', 'wbs', 'session'].map((d) => `${d} @100 steps, µs/call p50`));
    expect(metrics.filter((m) => m.metric.startsWith('cycle check'))).toHaveLength(2);
    expect(formatTable(metrics).split('\n').length).toBe(2 + 2 * metrics.length);
  }, 60_000);

  it('prompt economics: tokens per dialect and the cache-stable share over 20 requests', async () => {
    const metrics = await promptEconomicsBench({ quick: true });
    expectWellFormed(metrics, 'prompt');
    const perDialect = metrics.filter((m) => m.metric.includes('planning tokens per request'));
    expect(perDialect).toHaveLength(4);
    for (const m of perDialect) expect(m.value as number).toBeGreaterThan(50);
    const share = metrics.find((m) => m.metric === 'cache-stable share of request bytes over the run')!;
    expect(share.value as number).toBeGreaterThan(50);
    expect(share.value as number).toBeLessThanOrEqual(100);
    expect(formatMarkdown(metrics)).toContain('| prompt: cache-stable share of request bytes over the run |');
    // Plan first adds its note while a plan awaits approval; an edit note is a few dozen tokens.
    const planFirst = metrics.filter((m) => m.metric.includes('plan-first note per request'));
    expect(planFirst).toHaveLength(4);
    for (const m of planFirst) expect(m.value as number).toBeGreaterThan(50);
    expect(metrics.find((m) => m.metric === 'edit note: one edit (skip)')!.value as number).toBeGreaterThan(10);
  }, 60_000);
});

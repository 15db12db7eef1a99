import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { engineBench } from './engine';
import type { Benchmark, Metric } from './lib/metric';
import { longChatBench } from './long-chat';
import { planLatencyBench } from './plan-latency';
import { promptEconomicsBench } from './prompt-economics';
import { startupBench } from './startup';
import { streamingBench } from './streaming';

export interface Entry {
  name: string;
  /** Needs the built app and Chromium. */
  browser: boolean;
  load: () => Promise<Benchmark>;
}

const PERSISTENCE = new URL('./persistence.ts', import.meta.url);

/** bench/persistence.ts is another engineer's: run it when it exists, whatever it names its export. */
async function loadPersistence(): Promise<Benchmark> {
  // A computed specifier: the file may not exist yet, and the type check must not depend on it.
  const mod = (await import(PERSISTENCE.href)) as Record<string, unknown>;
  const fn = (mod.persistenceBench ?? mod.default ?? Object.values(mod).find((v) => typeof v === 'function')) as ((o: { quick: boolean }) => Promise<unknown>) | undefined;
  if (!fn) throw new Error('bench/persistence.ts exports no benchmark function');
  return async (options) => {
    const out = await fn(options);
    if (Array.isArray(out) && out.every((x) => x && typeof x === 'object' && 'metric' in x)) return out as Metric[];
    return [{ bench: 'persistence', metric: 'result', value: JSON.stringify(out), unit: '', target: null, met: null, method: 'as returned by bench/persistence.ts' }];
  };
}

export const BENCHES: Entry[] = [
  { name: 'engine', browser: false, load: async () => engineBench },
  { name: 'prompt', browser: false, load: async () => promptEconomicsBench },
  { name: 'plan-latency', browser: true, load: async () => planLatencyBench },
  { name: 'streaming', browser: true, load: async () => streamingBench },
  { name: 'long-chat', browser: true, load: async () => longChatBench },
  { name: 'startup', browser: true, load: async () => startupBench },
  ...(existsSync(fileURLToPath(PERSISTENCE)) ? [{ name: 'persistence', browser: false, load: loadPersistence }] : []),
];

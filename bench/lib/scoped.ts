/**
 * Cleanup in reverse order, always: every browser, web shell and scripted server a benchmark
 * starts is registered here so nothing survives a failed run.
 */
export class Scope {
  private readonly cleanups: Array<() => unknown> = [];

  add<T>(resource: T, cleanup: (r: T) => unknown): T {
    this.cleanups.push(() => cleanup(resource));
    return resource;
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.warn(`[bench] cleanup failed: ${String(error)}`);
      }
    }
  }
}

const open = new Set<Scope>();

export async function withScope<T>(body: (scope: Scope) => Promise<T>): Promise<T> {
  const scope = new Scope();
  open.add(scope);
  try {
    return await body(scope);
  } finally {
    open.delete(scope);
    await scope.close();
  }
}

/** Ctrl-C or a kill mid-run: stop every browser, web shell and server still open, then exit. */
export function closeAllOnSignal(): void {
  const stop = (signal: NodeJS.Signals) => {
    console.error(`[bench] ${signal}: stopping what the benchmarks started …`);
    void Promise.all([...open].reverse().map((scope) => scope.close())).finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

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

export async function withScope<T>(body: (scope: Scope) => Promise<T>): Promise<T> {
  const scope = new Scope();
  try {
    return await body(scope);
  } finally {
    await scope.close();
  }
}

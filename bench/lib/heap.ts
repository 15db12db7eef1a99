import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A forced GC without starting Node with --expose-gc: the flag can be set at run time, and a
 * fresh context then sees `gc`. Returns null if this Node refuses (allocations are then skipped).
 */
export function exposeGc(): (() => void) | null {
  if (typeof (globalThis as { gc?: () => void }).gc === 'function') return (globalThis as unknown as { gc: () => void }).gc;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

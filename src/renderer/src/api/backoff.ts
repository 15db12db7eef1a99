/** Exponential backoff with a cap and a little jitter so many tabs don't reconnect in lockstep. */
export function backoffDelay(attempt: number, baseMs = 250, maxMs = 5000, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (0.8 + 0.4 * random()));
}

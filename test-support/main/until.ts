/** Test support: polls until `condition` holds; fails naming `what` once `timeoutMs` has passed. */
export async function until(condition: () => boolean, what: string, timeoutMs = 8_000, stepMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/**
 * Lets a test hold Claude's next reply until it says go: with a gated scenario every request
 * waits for one `release()`, so e2e tests can look at each intermediate state of the UI.
 */
export class TurnGate {
  private permits = 0;
  private waiters: Array<() => void> = [];
  private arrivals: Array<() => void> = [];
  private waiting = 0;

  /** Lets `count` requests through (now, or as soon as they arrive). */
  release(count = 1): void {
    this.permits += count;
    while (this.permits > 0 && this.waiters.length > 0) {
      this.permits--;
      this.waiting--;
      this.waiters.shift()!();
    }
  }

  /** Resolves when the request may be answered. */
  pass(): Promise<void> {
    if (this.permits > 0) {
      this.permits--;
      return Promise.resolve();
    }
    this.waiting++;
    for (const arrived of this.arrivals.splice(0)) arrived();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once a request is held at the gate. */
  whenHeld(): Promise<void> {
    if (this.waiting > 0) return Promise.resolve();
    return new Promise((resolve) => this.arrivals.push(resolve));
  }

  /** Frees everything (server closing). */
  open(): void {
    this.release(Number.MAX_SAFE_INTEGER / 2);
  }
}

/**
 * Settings "Sub-agents at once": a counting semaphore per chat. A sub-agent waits for a slot in
 * the order it asked; a Stop while it waits gives up its place (acquire resolves false).
 */
export class SubAgentSlots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: () => number) {}

  /** True once a slot is this caller's; false when `signal` aborted first. */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.busy < this.size() && this.waiting.length === 0) {
      this.busy++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const go = () => {
        signal.removeEventListener('abort', abort);
        this.busy++;
        resolve(true);
      };
      const abort = () => {
        const at = this.waiting.indexOf(go);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      this.waiting.push(go);
      signal.addEventListener('abort', abort, { once: true });
    });
  }

  release(): void {
    this.busy--;
    // A higher setting lets more go at once; a lower one takes effect as slots come back.
    while (this.busy < this.size() && this.waiting.length) this.waiting.shift()!();
  }
}

/**
 * Collects text deltas per assistant item and hands them on every `flushMs`, so a fast stream
 * becomes a steady ~30 updates a second instead of one event per token.
 */
export class DeltaBatcher {
  private pending = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly flushMs: number,
    private readonly emit: (itemId: string, text: string) => void,
  ) {}

  push(itemId: string, text: string): void {
    if (!text) return;
    this.pending.set(itemId, (this.pending.get(itemId) ?? '') + text);
    if (this.flushMs <= 0) return this.flush();
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  /** Emits whatever is pending now; called before any other event so order is preserved. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending];
    this.pending.clear();
    for (const [itemId, text] of batch) this.emit(itemId, text);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}

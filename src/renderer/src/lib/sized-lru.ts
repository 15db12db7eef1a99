/**
 * A least-recently-used cache bounded by the total size of its entries (bytes, as the caller
 * estimates them), not by their number: rendered Markdown varies from a line to 80 KB a reply, so
 * a count either wastes memory or drops a long chat's entries. An entry larger than the whole
 * bound is not kept. (lru-cache does this too, at ~18 KB of bundle for these few lines.)
 */
export class SizedLru<K, V> {
  private readonly entries = new Map<K, { value: V; size: number }>();
  private total = 0;

  constructor(readonly maxSize: number) {}

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores (or replaces, with its new size) the value as the most recently used; evicts the least recently used to fit. */
  set(key: K, value: V, size: number): void {
    this.delete(key);
    if (size > this.maxSize) return;
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxSize) break;
      this.entries.delete(oldest);
      this.total -= entry.size;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }

  /** The sum of the sizes of the entries held. */
  get size(): number {
    return this.total;
  }

  get count(): number {
    return this.entries.size;
  }
}

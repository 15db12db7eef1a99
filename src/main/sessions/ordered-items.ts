import type { TranscriptItem } from '../../shared/transcript';

/**
 * A chat's transcript in order, with each item's position known: an upsert keeps an item where it
 * is, a new item goes to the end, a cut drops an item and everything after it. Positions let a
 * page of the transcript be served without walking the whole chat (issue 15, paged sessions).
 */
export class OrderedItems {
  private readonly list: TranscriptItem[] = [];
  private readonly positions = new Map<string, number>();

  get size(): number {
    return this.list.length;
  }

  /** Puts the item in its place (the end when it is new); returns that position. */
  set(item: TranscriptItem): number {
    const at = this.positions.get(item.id);
    if (at !== undefined) {
      this.list[at] = item;
      return at;
    }
    this.positions.set(item.id, this.list.length);
    this.list.push(item);
    return this.list.length - 1;
  }

  get(id: string): TranscriptItem | undefined {
    const at = this.positions.get(id);
    return at === undefined ? undefined : this.list[at];
  }

  /** The item's position, or -1 when the transcript does not hold it. */
  indexOf(id: string): number {
    return this.positions.get(id) ?? -1;
  }

  /** Items [start, end) in transcript order (clamped to the transcript). */
  slice(start: number, end: number = this.list.length): TranscriptItem[] {
    return this.list.slice(Math.max(0, start), Math.max(0, end));
  }

  /** Removes the item and every item after it; nothing when the transcript does not hold it. */
  cutFrom(id: string): void {
    const at = this.positions.get(id);
    if (at === undefined) return;
    for (const removed of this.list.splice(at)) this.positions.delete(removed.id);
  }

  /** Every item in order (a copy: callers may keep it while the chat goes on). */
  values(): TranscriptItem[] {
    return this.list.slice();
  }
}

import { statSync } from 'node:fs';
import type { LogEntry } from './log-records';
import type { LogTail } from './log-tail';
import type { SessionLogWriter } from './log-writer';
import type { PagedItems } from './paging/paged-items';

/**
 * One chat's log as this process sees it: where it stands in the file (`tail`), the writer while
 * it holds the chat's lock, and the streamed text not yet written. Records go out through
 * `append` only, each after the text streamed before it; whether this process may write at all
 * (the lock, a claim) is ChatLogs' question, asked before.
 */
export class ChatLog {
  /** Set while this process holds the chat's lock and writes it; null while it follows. */
  writer: SessionLogWriter | null = null;
  lastRunStatus = 'idle';
  lastSummaryJson = '';
  releaseTimer: ReturnType<typeof setTimeout> | null = null;
  /** Another process held the lock at the last look: its appends are read as they come. */
  followed = false;
  private readonly pendingText = new Map<string, string>();

  /**
   * `tail`: where this process stands in the log (what it has read or written). `items`: the
   * chat's paged items, told where each record lands so an item may leave memory.
   */
  constructor(
    readonly id: string,
    readonly tail: LogTail,
    private readonly items: () => PagedItems | undefined,
  ) {}

  /** Streamed text waits here (joined per item) until the next record or the text timer. */
  bufferText(itemId: string, text: string): void {
    this.pendingText.set(itemId, (this.pendingText.get(itemId) ?? '') + text);
  }

  get hasPendingText(): boolean {
    return this.pendingText.size > 0;
  }

  /** Appends a record after the text streamed before it. Only while writing (`writer` set). */
  append(entry: LogEntry): void {
    if (entry.type !== 'created') this.flushText();
    // An item's record tells the chat where it lies once it is in the file (the item may then leave memory).
    const written = entry.type === 'item' ? this.items()?.recording(entry.item.id, 'item') : undefined;
    this.writer!.append(entry, written ? { written } : {});
  }

  /** Writes the streamed text that waits. Only while writing (`writer` set). */
  flushText(): void {
    if (!this.pendingText.size) return;
    const items = this.items();
    for (const [itemId, text] of this.pendingText) {
      const written = items?.recording(itemId, 'text');
      this.writer!.append({ type: 'text', itemId, text }, written ? { written } : {});
    }
    this.pendingText.clear();
  }

  cancelRelease(): void {
    if (this.releaseTimer) clearTimeout(this.releaseTimer);
    this.releaseTimer = null;
  }

  /** Stops writing: what is buffered goes out first; the log is followed from its end on. False when it was not writing. */
  stopWriting(): boolean {
    this.cancelRelease();
    if (!this.writer) return false;
    this.flushText();
    const writer = this.writer;
    this.writer = null;
    this.tail.lastSeq = writer.nextSeq - 1;
    try {
      this.tail.offset = statSync(this.tail.path).size;
    } catch {
      // Deleted: nothing left to follow.
    }
    writer.close();
    return true;
  }

  /** Another process took the lock: what was not written yet is dropped, and the log is followed from where this process's records end. */
  dropWriter(): void {
    const writer = this.writer;
    if (!writer) return;
    this.writer = null;
    this.cancelRelease();
    this.pendingText.clear();
    this.tail.lastSeq = writer.nextSeq - 1;
    this.tail.offset = writer.endOffset ?? this.tail.offset;
    writer.close();
    this.followed = true;
  }

  /** Stops at once (dispose, or the log changed behind its writer): nothing more is written. */
  close(): void {
    this.cancelRelease();
    this.writer?.close();
    this.writer = null;
  }
}

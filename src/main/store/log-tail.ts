import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularForReading } from '../common/regular-file';
import type { LogRecord } from './log-records';
import { parseLogBytes, type LineSpan } from './log-reader';

export type TailRead =
  | { kind: 'records'; records: LogRecord[]; spans: LineSpan[]; warnings: string[] }
  /** The log is gone or shorter than what was read: the chat was deleted (or replaced). */
  | { kind: 'gone' };

/**
 * Reads a chat log that another process appends to, piece by piece: each read returns the
 * complete lines appended since the last one. A line still being written (no newline yet) is
 * left for the next read, never reported as torn: its writer is alive.
 */
export class LogTail {
  constructor(
    readonly path: string,
    /** Bytes read so far: always the end of a complete line. */
    public offset: number,
    /** The last seq read; the next record must be newer. */
    public lastSeq: number,
  ) {}

  read(): TailRead {
    let fd: number;
    try {
      fd = openRegularForReading(this.path);
    } catch {
      // Deleted, replaced by a FIFO or a folder, or its folder is not a folder any more: nothing to read (the writer says why).
      return { kind: 'gone' };
    }
    try {
      const size = fstatSync(fd).size;
      if (size < this.offset) return { kind: 'gone' };
      if (size === this.offset) return { kind: 'records', records: [], spans: [], warnings: [] };
      const buffer = Buffer.alloc(size - this.offset);
      let read = 0;
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, this.offset + read);
        if (n === 0) break;
        read += n;
      }
      const end = buffer.subarray(0, read).lastIndexOf(0x0a);
      if (end < 0) return { kind: 'records', records: [], spans: [], warnings: [] };
      const parsed = parseLogBytes(buffer.subarray(0, end + 1), this.path, this.lastSeq, this.offset);
      this.offset += end + 1;
      if (parsed.nextSeq - 1 > this.lastSeq) this.lastSeq = parsed.nextSeq - 1;
      return { kind: 'records', records: parsed.records, spans: parsed.spans, warnings: parsed.warnings };
    } finally {
      closeSync(fd);
    }
  }

  /** Bytes past the last complete line: a torn write of a writer that died. */
  tornBytes(): number {
    try {
      const fd = openRegularForReading(this.path);
      try {
        return Math.max(0, fstatSync(fd).size - this.offset);
      } finally {
        closeSync(fd);
      }
    } catch {
      return 0;
    }
  }
}

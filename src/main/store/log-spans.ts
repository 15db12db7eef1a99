import { closeSync, readSync } from 'node:fs';
import { openRegularForReading } from '../common/regular-file';
import type { LineSpan } from './log-reader';

/** Lines closer than this are read in one read (what lies between them is read and skipped). */
const JOIN_GAP = 64 * 1024;

/**
 * The bytes of some lines of a log, in the order asked, with as few reads as the gaps between them
 * allow: lines near each other (a page of items with the history records between them) come from
 * one read. Throws when the file cannot be read (deleted, replaced by a folder or a FIFO).
 */
export function readSpans(path: string, spans: readonly LineSpan[]): Buffer[] {
  const out: Buffer[] = new Array<Buffer>(spans.length);
  if (!spans.length) return out;
  const order = spans.map((_, index) => index).sort((a, b) => spans[a]!.start - spans[b]!.start);
  const fd = openRegularForReading(path);
  try {
    let first = 0;
    while (first < order.length) {
      let last = first;
      let end = spans[order[first]!]!.end;
      while (last + 1 < order.length && spans[order[last + 1]!]!.start - end <= JOIN_GAP) {
        last++;
        end = Math.max(end, spans[order[last]!]!.end);
      }
      const start = spans[order[first]!]!.start;
      const block = readExactly(fd, start, end - start);
      for (let i = first; i <= last; i++) {
        const span = spans[order[i]!]!;
        out[order[i]!] = block.subarray(span.start - start, span.end - start);
      }
      first = last + 1;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

function readExactly(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) throw new Error(`the log ends before byte ${position + length}`);
    read += n;
  }
  return buffer;
}

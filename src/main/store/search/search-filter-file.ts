import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readRegularFileSync } from '../../common/regular-file';
import { TextBloom } from './text-bloom';

/**
 * `sessions/<id>/search-filter.bin`: a chat's search filter (text-bloom.ts) over the sidebar text
 * of every item of its log, so the sidebar search skips a listed chat's log unread when the log
 * cannot hold the text (unread-search.ts). Kept beside the log, not in `index.json`: a start
 * reads the index, and 10,000 chats' filters (a few KB each) would make it tens of MB. Like the
 * index it is a cache of the log: it records the log's size and mtime it was made from, and is
 * not used (and is made again) once the log has others. Lost or damaged, it is made again.
 */
export const FILTER_FILE = 'search-filter.bin';

/** The size and mtime (ms) of the log the filter was made from, as two float64s, then the filter. */
const HEAD = 16;

interface LogStamp {
  size: number;
  mtimeMs: number;
}

/** The filter kept for the log at `logPath`, if it was made from the log as it is now (`stamp`). */
export function readSearchFilter(logPath: string, stamp: LogStamp): TextBloom | null {
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(join(dirname(logPath), FILTER_FILE));
  } catch {
    return null;
  }
  if (bytes.length < HEAD || bytes.readDoubleLE(0) !== stamp.size || bytes.readDoubleLE(8) !== stamp.mtimeMs) return null;
  return TextBloom.fromBytes(bytes.subarray(HEAD));
}

/** Keeps `filter`, made from the log at `logPath` as `stamp` has it. A failed write only costs a read next time. */
export function writeSearchFilter(logPath: string, stamp: LogStamp, filter: TextBloom): void {
  const head = Buffer.alloc(HEAD);
  head.writeDoubleLE(stamp.size, 0);
  head.writeDoubleLE(stamp.mtimeMs, 8);
  const path = join(dirname(logPath), FILTER_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    // Temp and rename, so a reader never sees half a filter; no fsync (a first search writes
    // thousands): a filter lost to a power cut is made again, and a torn one fails its checks.
    writeFileSync(temp, Buffer.concat([head, filter.toBytes()]), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Never written.
    }
    // A read-only or full disk: the search reads the log, as it would without a filter.
  }
}

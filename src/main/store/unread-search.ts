import type { SessionSummary } from '../../shared/transcript';
import { readRegularFileSync } from '../common/regular-file';
import { parseLogBytes } from './log-reader';
import { rawMayContain } from './search/raw-match';
import { replay } from './replay';
import { searchChats, type SearchHit } from './search/chat-search';

/** A `text` record's line (log-records.ts: every record begins with its seq and time). */
const TEXT_RECORD = /(?:^|\n)\{"seq":\d+,"t":"[^"]*","type":"text"/;

/**
 * The sidebar search over a chat listed from the chat index but never read (store/chat-index.ts).
 * The log is read once and let go, so searching 10,000 chats holds one log at a time. A log whose
 * bytes cannot hold the text (raw-match.ts, which never says no wrongly) is not parsed; one that
 * may is replayed and searched as a chat in memory is, so the hit and its snippet are the same.
 */
export function searchLog(summary: SessionSummary, path: string, query: string, keepRecent?: number): SearchHit[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  // A title match needs no log.
  const byTitle = searchChats([{ summary, searchCandidates: () => [] }], query);
  if (byTitle.length) return byTitle;
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(path);
  } catch {
    // Gone or no longer a file: nothing to find (the folder poll or the next use says why).
    return [];
  }
  // A match may straddle the pieces of streamed text (`text` records): such a log is always replayed.
  if (!TEXT_RECORD.test(bytes.toString('latin1')) && !rawMayContain(needle)(bytes)) return [];
  const read = parseLogBytes(bytes, path);
  const chat = replay(read.records, { spans: read.spans, path, keepRecent });
  if (!chat) return [];
  return searchChats([{ summary, searchCandidates: (mayMatch, inLog) => chat.items.candidates(mayMatch, inLog), logMayHold: (text) => chat.items.logMayHold(text) }], query);
}

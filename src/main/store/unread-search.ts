import type { SessionSummary, TranscriptItem } from '../../shared/transcript';
import { readRegularFileSync } from '../common/regular-file';
import { parseLogBytes } from './log-reader';
import { rawMayContain } from './search/raw-match';
import { replay } from './replay';
import { searchChats, type SearchHit } from './search/chat-search';
import { readSearchFilter, writeSearchFilter } from './search/search-filter-file';
import { sidebarText } from './search/sidebar-text';
import { TextBloom } from './search/text-bloom';
import { stampOf } from './chat-index';

/** A `text` record's line (log-records.ts: every record begins with its seq and time). */
const TEXT_RECORD = /(?:^|\n)\{"seq":\d+,"t":"[^"]*","type":"text"/;

/**
 * The sidebar search over a chat listed from the chat index but never read (store/chat-index.ts).
 * The log is read once and let go, so searching 10,000 chats holds one log at a time. A log whose
 * bytes cannot hold the text (raw-match.ts, which never says no wrongly) is not parsed; one that
 * may is replayed and searched as a chat in memory is, so the hit and its snippet are the same.
 * A log read whole leaves its search filter beside it (search-filter-file.ts): the next search
 * skips the log unread when the filter says it cannot hold the text (issue 22 item 2).
 */
export function searchLog(summary: SessionSummary, path: string, query: string, keepRecent?: number): SearchHit[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  // A title match needs no log.
  const byTitle = searchChats([{ summary, searchCandidates: () => [] }], query);
  if (byTitle.length) return byTitle;
  const stamp = stampOf(path);
  if (!stamp) return [];
  const filter = readSearchFilter(path, stamp);
  if (filter && !filter.mayContain(needle)) return [];
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(path);
  } catch {
    // Gone or no longer a file: nothing to find (the folder poll or the next use says why).
    return [];
  }
  // With a filter the raw test adds nothing; without one, the log is replayed whole to make it.
  // A match may straddle the pieces of streamed text (`text` records): such a log is always replayed.
  if (filter && !TEXT_RECORD.test(bytes.toString('latin1')) && !rawMayContain(needle)(bytes)) return [];
  const read = parseLogBytes(bytes, path);
  const chat = replay(read.records, { spans: read.spans, path, keepRecent });
  if (!chat) return [];
  // The filter is of the bytes read: only kept when the log is still as it was stamped.
  if (!filter && bytes.length === stamp.size) {
    const made = filterOf(chat.items.candidates(() => true, true));
    const now = stampOf(path);
    if (now && now.size === stamp.size && now.mtimeMs === stamp.mtimeMs) writeSearchFilter(path, stamp, made);
  }
  return searchChats([{ summary, searchCandidates: (mayMatch, inLog) => chat.items.candidates(mayMatch, inLog), logMayHold: (text) => chat.items.logMayHold(text) }], query);
}

/** A filter over every item's sidebar text, sized for it (text-bloom.ts): one log's texts are held at a time. */
export function filterOf(items: Iterable<TranscriptItem>): TextBloom {
  const texts = Array.from(items, sidebarText);
  const filter = TextBloom.forChars(texts.reduce((n, text) => n + text.length, 0));
  for (const text of texts) filter.add(text);
  return filter;
}

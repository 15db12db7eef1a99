import type { TranscriptItem } from '../../../shared/transcript';
import { foldCase, matchOffsets } from '../../../shared/text-find';
import { rawMayContain } from './raw-match';
import type { ChatSession } from '../../chats/chat-session';
import { searchableChat, snippetAround } from './chat-search';

/** More matches than a person steps through; the total is still counted. */
export const FIND_MATCH_CAP = 500;

export interface ChatMatch {
  itemId: string;
  /** The words around the match, on one line ("…" where cut). */
  snippet: string;
  /** Where the match starts in the item's searchable text (its parts joined by FIELD_GAP). */
  index: number;
  /** Which match of its item this is (0 = the first), as the renderer counts them in the row. */
  occurrence: number;
}

export interface ChatFindResult {
  matches: ChatMatch[];
  /** Every match in the chat, also those past the cap. */
  total: number;
  truncated: boolean;
}

/** Between two parts of an item (a tool call's summary and its result); a match never spans it. */
export const FIELD_GAP = '\n\n';

/**
 * The text a person can read of an item, part by part, in the order the row shows it. Tool inputs
 * are not shown as such (the summary words them); discarded and redacted thinking shows no text.
 */
export function searchableParts(item: TranscriptItem): string[] {
  switch (item.kind) {
    case 'user':
      return [item.text, ...(item.attachments ?? []).map((a) => a.name)];
    case 'assistant':
    case 'notice':
    case 'plan_change':
      return [item.text];
    case 'tool_call':
      return item.result === undefined ? [item.summary] : [item.summary, item.result];
    case 'thinking':
      return item.status === 'discarded' || item.redacted ? [] : [item.text];
    case 'plan_completion':
      return [item.goal, item.completion.summary];
    case 'compaction':
      return [item.summary];
    case 'rerun':
      return [item.earlier.title];
  }
}

/**
 * Find in chat: every case-insensitive plain-text occurrence of `query` in the chat's items, in
 * transcript order (within an item, left to right, non-overlapping). Snippets are made for the
 * first `cap` only; `total` counts all of them.
 */
export function findInChat(items: readonly TranscriptItem[], query: string, cap = FIND_MATCH_CAP): ChatFindResult {
  const needle = foldCase(query);
  const matches: ChatMatch[] = [];
  let total = 0;
  if (!needle) return { matches, total, truncated: false };
  for (const item of items) {
    let occurrence = 0;
    let start = 0;
    for (const part of searchableParts(item)) {
      for (const at of matchOffsets(foldCase(part), needle)) {
        total++;
        if (matches.length < cap) {
          matches.push({ itemId: item.id, snippet: snippetAround(part, at, query.length), index: start + at, occurrence });
        }
        occurrence++;
      }
      start += part.length + FIELD_GAP.length;
    }
  }
  return { matches, total, truncated: total > matches.length };
}

/** Find in chat over a chat whose older items are in its log: only the items that may match are read. */
export function findInPagedChat(session: ChatSession, query: string, cap = FIND_MATCH_CAP): ChatFindResult {
  const chat = searchableChat(session);
  // Items the filter passes over have no match, so the result is findInChat's over every item.
  return findInChat([...chat.searchCandidates(rawMayContain(foldCase(query)))], query, cap);
}

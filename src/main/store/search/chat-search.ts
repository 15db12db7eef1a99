import type { ChatSession } from '../../chats/chat-session';
import { pagedItemsOf } from '../paging/paged-items';
import type { SessionSummary, TranscriptItem } from '../../../shared/transcript';
import { rawMayContain } from './raw-match';
import { sidebarText } from './sidebar-text';

export interface SearchHit {
  session: SessionSummary;
  snippet: string;
}

const CONTEXT = 40;

/** "…the words around the match…", on one line. */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - CONTEXT);
  const end = Math.min(text.length, index + length + CONTEXT);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

/** A chat to search (chat-session.ts): its summary, and its items that may contain a text. */
export interface SearchableChat {
  summary: SessionSummary;
  /** In order, read from the log a chunk at a time; `inLog` false: only the items held in memory. */
  searchCandidates(mayMatch: (line: Buffer) => boolean, inLog?: boolean): Iterable<TranscriptItem>;
  /** False when no item in the chat's log holds `needle` in its sidebar text (lower-cased). */
  logMayHold?(needle: string): boolean;
}

/**
 * Case-insensitive text search over titles and messages. A title match comes first and shows
 * the title; otherwise the first matching message gives the snippet. Newest chats first, as listed.
 * Only items that may match are read from a chat's log (raw-match.ts).
 */
export function searchChats(chats: Iterable<SearchableChat>, query: string): SearchHit[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const mayMatch = rawMayContain(needle);
  const hits: SearchHit[] = [];
  for (const chat of chats) {
    const hit = searchChat(chat, needle, mayMatch);
    if (hit) hits.push(hit);
  }
  return hits;
}

function searchChat(chat: SearchableChat, needle: string, mayMatch: (line: Buffer) => boolean): SearchHit | null {
  const { summary } = chat;
  if (summary.title.toLowerCase().includes(needle)) return { session: summary, snippet: summary.title };
  // Stops at the first match: the rest of the chat is not read.
  for (const item of chat.searchCandidates(mayMatch, chat.logMayHold?.(needle) ?? true)) {
    const text = sidebarText(item);
    const at = text.toLowerCase().indexOf(needle);
    if (at >= 0) return { session: summary, snippet: snippetAround(text, at, needle.length) };
  }
  return null;
}

/** A chat of record as search sees it: its items through the store's pages, the log included (paged-items.ts). */
export function searchableChat(session: ChatSession): SearchableChat {
  const items = pagedItemsOf(session);
  return {
    summary: session.summary,
    searchCandidates: (mayMatch, inLog) => (items ? items.candidates(mayMatch, inLog) : session.transcript),
    logMayHold: (needle) => items?.logMayHold(needle) ?? true,
  };
}

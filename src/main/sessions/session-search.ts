import type { SessionSummary, TranscriptItem } from '../../shared/transcript';
import { rawMayContain } from './raw-match';

export interface SearchHit {
  session: SessionSummary;
  snippet: string;
}

const CONTEXT = 40;

/** The searchable text of an item: what the user read, not tool inputs. */
function textOf(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
      return [item.text, ...(item.attachments ?? []).map((a) => a.name)].join(' ');
    case 'assistant':
    case 'notice':
    case 'plan_change':
      return item.text;
    case 'plan_completion':
      return `${item.goal} ${item.completion.summary}`;
    case 'tool_call':
      return item.summary;
    case 'thinking':
    case 'rerun':
      return '';
    case 'compaction':
      return item.summary;
  }
}

/** "…the words around the match…", on one line. */
export function snippetAround(text: string, index: number, length: number): string {
  const start = Math.max(0, index - CONTEXT);
  const end = Math.min(text.length, index + length + CONTEXT);
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

/** A chat to search: its summary, and its items that may contain a text (chat-session.ts). */
export interface SearchableChat {
  summary: SessionSummary;
  searchCandidates(mayMatch: (raw: string) => boolean): TranscriptItem[];
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

function searchChat(chat: SearchableChat, needle: string, mayMatch: (raw: string) => boolean): SearchHit | null {
  const { summary } = chat;
  if (summary.title.toLowerCase().includes(needle)) return { session: summary, snippet: summary.title };
  for (const item of chat.searchCandidates(mayMatch)) {
    const text = textOf(item);
    const at = text.toLowerCase().indexOf(needle);
    if (at >= 0) return { session: summary, snippet: snippetAround(text, at, needle.length) };
  }
  return null;
}

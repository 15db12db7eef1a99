import type { SessionSummary, TranscriptItem } from '../../shared/transcript';

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

/**
 * Case-insensitive text search over titles and messages. A title match comes first and shows
 * the title; otherwise the first matching message gives the snippet. Newest chats first, as listed.
 */
export function searchChats(chats: Array<{ summary: SessionSummary; transcript: TranscriptItem[] }>, query: string): SearchHit[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  const hits: SearchHit[] = [];
  for (const { summary, transcript } of chats) {
    const inTitle = summary.title.toLowerCase().indexOf(needle);
    if (inTitle >= 0) {
      hits.push({ session: summary, snippet: summary.title });
      continue;
    }
    for (const item of transcript) {
      const text = textOf(item);
      const at = text.toLowerCase().indexOf(needle);
      if (at >= 0) {
        hits.push({ session: summary, snippet: snippetAround(text, at, needle.length) });
        break;
      }
    }
  }
  return hits;
}

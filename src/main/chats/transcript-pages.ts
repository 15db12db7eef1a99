import type { TranscriptItem } from '../../shared/transcript';
import { UserFacingError } from '../common/errors';

/** What paging needs of a chat (ChatSession has it): positions and a slice, never the whole chat. */
export interface PagedTranscript {
  readonly itemCount: number;
  indexOf(id: string): number;
  itemsBetween(start: number, end?: number): TranscriptItem[];
}

/**
 * How big a page is. By count and by size (the items' JSON, what goes on the wire), so a page
 * fills several screens in a chat of one-line messages (100 items ≈ 6 screens) and stays small
 * in a chat of long replies (64 KB ≈ 35 items of the 300-turn working chat, ≈ 9 turns of markdown,
 * code and tool cards, many screens). Measured on that chat (bench/working-chat.ts, a reload to
 * its last reply, load ≈ 13): the whole 2 MB transcript best 479–553 ms; pages of 100 items /
 * 64 KB best 287–368 ms, 50 / 32 KB best 349–507 ms: the wire and the parse stop mattering
 * below ≈ 100 KB, so the bigger page, which asks main less often while scrolling up, is taken.
 */
export interface PageSize {
  /** At most this many items. */
  maxItems: number;
  /** Items stop being added once the page holds this many characters of JSON… */
  maxChars: number;
  /** …but a page has at least this many (a screen and more), however big they are. */
  minItems: number;
}

export const PAGE_SIZE: PageSize = { maxItems: 100, maxChars: 64_000, minItems: 24 };

/**
 * The pages before it, asked for while the user scrolls up, are bigger: each is a round trip the
 * wheel may have to wait for at the top, and the open is done by then. Wheeling the working chat
 * to its top (bench/working-chat.ts, 800 px every 30 ms) took 350–370 turns of the wheel with the
 * opening page size where the whole chat loaded at once took 240: the rest was waiting at the top.
 */
export const OLDER_PAGE_SIZE: PageSize = { maxItems: 300, maxChars: 256_000, minItems: 24 };

export interface TranscriptPage {
  items: TranscriptItem[];
  /** How many items come before the first one of the page. */
  olderItems: number;
}

/** The page that ends at position `end` (exclusive): as many items before it as the size allows. */
export function pageEndingAt(chat: PagedTranscript, end: number, size: PageSize = PAGE_SIZE): TranscriptPage {
  const start = Math.max(0, end - size.maxItems);
  const candidates = chat.itemsBetween(start, end);
  let chars = 0;
  let keep = 0;
  for (let i = candidates.length - 1; i >= 0; i--) {
    chars += JSON.stringify(candidates[i]).length;
    if (keep >= size.minItems && chars > size.maxChars) break;
    keep++;
  }
  const first = candidates.length - keep;
  return { items: first === 0 ? candidates : candidates.slice(first), olderItems: start + first };
}

/** The end of the chat, as getSession sends it when a chat is opened. */
export function lastPage(chat: PagedTranscript, size: PageSize = PAGE_SIZE): TranscriptPage {
  return pageEndingAt(chat, chat.itemCount, size);
}

export interface PageRequest {
  beforeItemId: string;
  /** Exactly this many items before (fewer at the start of the chat) instead of a sized page. */
  limit?: number;
  /** The page reaches back at least to this item. */
  throughItemId?: string;
}

/** The items before `beforeItemId` (getTranscriptPage); refused when an item named is no longer in the chat. */
export function pageBefore(chat: PagedTranscript, request: PageRequest, size: PageSize = OLDER_PAGE_SIZE): TranscriptPage {
  const end = positionOf(chat, request.beforeItemId);
  // An item at or after `end` is loaded already: it asks for nothing more.
  const through = request.throughItemId === undefined ? end : positionOf(chat, request.throughItemId);
  if (request.limit === undefined) {
    const page = pageEndingAt(chat, end, size);
    if (through >= page.olderItems) return page;
    return { items: chat.itemsBetween(through, end), olderItems: through };
  }
  const start = Math.min(Math.max(0, end - request.limit), through);
  return { items: chat.itemsBetween(start, end), olderItems: start };
}

function positionOf(chat: PagedTranscript, itemId: string): number {
  const at = chat.indexOf(itemId);
  if (at < 0) {
    throw new UserFacingError('not_found', `That part of the chat is gone (an edited message or a retried reply replaced it). Open the chat again to see it as it is now.`);
  }
  return at;
}

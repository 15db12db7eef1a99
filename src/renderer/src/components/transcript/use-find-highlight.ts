import { type RefObject, useEffect, useRef } from 'react';
import type { FindMatch } from '../../store/find-slice';
import { matchRanges } from './find-ranges';
import { rowElement, rowKeysByItem } from './row-key';
import type { TranscriptRow } from './transcript-rows';

/** What find in chat marks: every match of `query` on screen, and `current` distinctly. */
export interface FindMarks {
  query: string;
  current: FindMatch | null;
}

const ALL = 'find-match';
const CURRENT = 'find-current';
/** While find is open, changes to the transcript (a streamed reply) repaint the marks at most this often. */
const REFRESH_MS = 200;

function registry(): HighlightRegistry | null {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight !== 'undefined' ? CSS.highlights : null;
}

/**
 * Marks find-in-chat's matches in the transcript with the CSS Custom Highlight API, so React's DOM
 * is never changed: every match on screen, and the current one (main's `occurrence` of its item,
 * counted in its row) distinctly. Cleared when there is nothing to mark (the bar closed).
 */
export function useFindHighlight(ref: RefObject<HTMLElement | null>, rows: readonly TranscriptRow[], marks: FindMarks | null): void {
  const query = marks?.query ?? '';
  const match = marks?.current ?? null;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  useEffect(() => {
    const highlights = registry();
    const container = ref.current;
    if (!highlights) return;
    const clear = () => {
      highlights.delete(ALL);
      highlights.delete(CURRENT);
    };
    if (!query || !container) {
      clear();
      return;
    }
    const paint = () => {
      const all: Range[] = [];
      for (const row of container.querySelectorAll<HTMLElement>('[data-row-key]')) all.push(...matchRanges(row, query));
      const currentRow = match ? rowElement(container, rowKeysByItem(rowsRef.current).get(match.itemId)) : null;
      const current = currentRow && match ? matchRanges(currentRow, query)[match.occurrence] : undefined;
      highlights.set(ALL, new Highlight(...all));
      const mark = new Highlight(...(current ? [current] : []));
      mark.priority = 1;
      highlights.set(CURRENT, mark);
    };
    paint();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new MutationObserver(() => {
      timer ??= setTimeout(() => {
        timer = undefined;
        paint();
      }, REFRESH_MS);
    });
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      clearTimeout(timer);
      clear();
    };
  }, [ref, query, match]);
}

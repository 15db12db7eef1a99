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
/** While find is open, scrolling and changes to the transcript repaint the marks at most this often. */
const REFRESH_MS = 150;

function registry(): HighlightRegistry | null {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight !== 'undefined' ? CSS.highlights : null;
}

/**
 * Marks find-in-chat's matches in the transcript with the CSS Custom Highlight API, so React's DOM
 * is never changed: the current match (main's `occurrence` of its item, counted in its row)
 * distinctly, and every match in the rows on screen or a screen away — a long chat's common word
 * would otherwise mean tens of thousands of ranges. Cleared when there is nothing to mark.
 */
export function useFindHighlight(ref: RefObject<HTMLElement | null>, rows: readonly TranscriptRow[], marks: FindMarks | null): void {
  const query = marks?.query ?? '';
  const match = marks?.current ?? null;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  // Every match near the view: on a new query, then as the view scrolls or the transcript changes.
  useEffect(() => {
    const highlights = registry();
    const container = ref.current;
    if (!highlights) return;
    if (!query || !container) {
      highlights.delete(ALL);
      return;
    }
    const paint = () => {
      const view = container.getBoundingClientRect();
      const ranges: Range[] = [];
      for (const row of container.querySelectorAll<HTMLElement>('[data-row-key]')) {
        const r = row.getBoundingClientRect();
        if (r.bottom < view.top - view.height || r.top > view.bottom + view.height) continue;
        ranges.push(...matchRanges(row, query));
      }
      highlights.set(ALL, new Highlight(...ranges));
    };
    paint();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        paint();
      }, REFRESH_MS);
    };
    const observer = new MutationObserver(later);
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    container.addEventListener('scroll', later, { passive: true });
    return () => {
      observer.disconnect();
      container.removeEventListener('scroll', later);
      clearTimeout(timer);
      highlights.delete(ALL);
    };
  }, [ref, query]);

  // The current match: only its row is read.
  useEffect(() => {
    const highlights = registry();
    const container = ref.current;
    if (!highlights) return;
    if (!query || !match || !container) {
      highlights.delete(CURRENT);
      return;
    }
    const paint = () => {
      const row = rowElement(container, rowKeysByItem(rowsRef.current).get(match.itemId));
      // A row of several items (a run of plan changes) marks each item's part; occurrences count per item.
      const scope = row?.querySelector(`[data-find-item="${CSS.escape(match.itemId)}"]`) ?? row;
      const range = scope ? matchRanges(scope, query)[match.occurrence] : undefined;
      const mark = new Highlight(...(range ? [range] : []));
      mark.priority = 1;
      highlights.set(CURRENT, mark);
    };
    paint();
    // The row may change under the mark (a streamed reply) or mount later (a virtualised list).
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
      highlights.delete(CURRENT);
    };
  }, [ref, query, match]);
}

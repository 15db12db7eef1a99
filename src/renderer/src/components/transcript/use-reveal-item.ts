import { type RefObject, useLayoutEffect, useRef } from 'react';
import type { Reveal } from '../../store/ui-slice';
import { rowElement, rowKeysByItem } from './row-key';
import type { TranscriptRow } from './transcript-rows';

/**
 * Honours ui-slice's `reveal` for today's transcript, where every row is in the DOM: the row that
 * shows the item scrolls to the middle of the view. A virtualised transcript replaces this hook
 * (it scrolls its list to the item's index instead); nothing else depends on how it is done.
 */
export function useRevealItem(ref: RefObject<HTMLElement | null>, rows: readonly TranscriptRow[], reveal: Reveal | null): void {
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useLayoutEffect(() => {
    if (!reveal) return;
    const row = rowElement(ref.current, rowKeysByItem(rowsRef.current).get(reveal.itemId));
    row?.scrollIntoView({ block: 'center' });
  }, [ref, reveal]);
}

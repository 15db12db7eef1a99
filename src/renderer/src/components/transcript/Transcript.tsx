import { type FocusEvent, type KeyboardEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Virtualizer, type VirtualizerHandle } from 'virtua';
import type { TranscriptItem } from '../../../../shared/transcript';
import type { Reveal } from '../../store/ui-slice';
import { PlanChangeGroup } from './PlanChangeGroup';
import { rowIndexOf } from './reveal-row';
import { TranscriptEntry, type TranscriptControls } from './TranscriptEntry';
import { rowKey } from './row-key';
import { transcriptRows, type TranscriptRow } from './transcript-rows';
import { type FindMarks, useFindHighlight } from './use-find-highlight';
import { usePrepareRows } from './use-prepare-rows';
import { useStickToBottom } from './use-stick-to-bottom';
import { RowsContext, TranscriptInner, TranscriptRowBox } from './virtual-parts';

const NO_ITEMS: TranscriptItem[] = [];

interface Props {
  items?: TranscriptItem[];
  announcement: string;
  controls?: TranscriptControls;
  /** Bring this item's row to the centre (find-in-chat); see ui-slice `revealItem`. */
  reveal?: Reveal | null;
  /** Find in chat's matches to mark. */
  findMarks?: FindMarks | null;
}

/**
 * The conversation, virtualised: only the rows near the viewport are in the DOM (a 300-turn chat
 * would otherwise be ~50,000 elements), in reading order. aria-live is off on the log itself so
 * streaming text doesn't flood screen readers; a separate polite status announces when a reply
 * finishes. Mount it per chat (key by chat id): it opens at the end.
 */
export function Transcript({ items = NO_ITEMS, announcement, controls, reveal = null, findMarks = null }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<VirtualizerHandle>(null);
  const rows = useMemo(() => transcriptRows(items), [items]);
  const stick = useStickToBottom(scrollRef, rows.length, items);
  const shift = usePrepended(rows);
  useFindHighlight(scrollRef, rows, findMarks);
  const prepareRows = usePrepareRows(rows, listRef);
  // The row holding focus stays mounted while scrolled away, or focus (and a half-typed edit) would be lost.
  const [focusedRow, setFocusedRow] = useState<number | null>(null);

  const handledReveal = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (!reveal || reveal.nonce === handledReveal.current) return;
    const index = rowIndexOf(rows, items, reveal.itemId);
    if (index < 0) return; // not in this chat (yet): tried again when its items arrive
    handledReveal.current = reveal.nonce;
    stick.stopFollowing();
    listRef.current?.scrollToIndex(index, { align: 'center' });
  }, [reveal, rows, items, stick]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return; // a textbox or button inside a row keeps its keys
    stick.onKey(event.key);
    // The browser's own Home/End scroll smoothly, and rows measured on the way shift what is
    // above the view, so the animation lands off its mark. Jump instead: the top is exact (nothing
    // above it to estimate), and following re-takes the end as the last rows are measured.
    if (event.key === 'Home') {
      event.preventDefault();
      event.currentTarget.scrollTo({ top: 0, behavior: 'instant' });
    } else if (event.key === 'End') {
      event.preventDefault();
      stick.follow();
    }
  };
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const row = (event.target as Element).closest<HTMLElement>('[data-row]');
    setFocusedRow(row ? Number(row.dataset.row) : null);
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedRow(null);
  };

  return (
    <>
      <div
        className="transcript"
        ref={scrollRef}
        onScroll={stick.onScroll}
        onWheel={stick.onWheel}
        onPointerDown={stick.onPointerDown}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={onBlur}
        tabIndex={0}
        role="log"
        aria-label="Conversation"
        aria-live="off"
      >
        {rows.length === 0 ? (
          <p className="transcript-empty">Ask Claude anything. For bigger jobs it plans the work in the open.</p>
        ) : (
          <RowsContext.Provider value={rows}>
          <Virtualizer
            ref={listRef}
            data={rows}
            shift={shift}
            as={TranscriptInner}
            item={TranscriptRowBox}
            onResize={stick.onResize}
            onScroll={prepareRows}
            {...(focusedRow !== null && focusedRow < rows.length ? { keepMounted: [focusedRow] } : {})}
          >
            {(row: TranscriptRow) =>
              row.kind === 'item' ? (
                <TranscriptEntry
                  key={rowKey(row)}
                  item={row.item}
                  {...(controls ? { sessionId: controls.sessionId, editable: controls.editable, retry: controls.retryId === row.item.id } : {})}
                />
              ) : (
                <PlanChangeGroup key={rowKey(row)} items={row.items} {...(reveal && row.items.some((i) => i.id === reveal.itemId) ? { openFor: reveal.nonce } : {})} />
              )
            }
          </Virtualizer>
          </RowsContext.Provider>
        )}
      </div>
      <div className="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
    </>
  );
}

/**
 * Whether rows were just added before the first one (older items paged in above): the virtualiser
 * then keeps the view where it is by measuring from the end. Only then — it must not be set for
 * appends or edits.
 */
function usePrepended(rows: readonly TranscriptRow[]): boolean {
  const [seen, setSeen] = useState<{ first: string | undefined; count: number; shift: boolean }>({ first: rows[0] && rowKey(rows[0]), count: rows.length, shift: false });
  const first = rows[0] && rowKey(rows[0]);
  if (first !== seen.first || rows.length !== seen.count) {
    const prepended = rows.length > seen.count && seen.first !== undefined && first !== seen.first && rows.slice(1).some((r) => rowKey(r) === seen.first);
    setSeen({ first, count: rows.length, shift: prepended });
    return prepended;
  }
  return seen.shift;
}

import { type FocusEvent, type KeyboardEvent, type WheelEvent, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
  /** The chat is opened but its items are on their way (a long chat's log is being read). */
  loading?: boolean;
  /** How many items of the chat come before `items`: not loaded yet (paged sessions). */
  olderItems?: number;
  /** Older items are on their way. */
  loadingOlder?: boolean;
  /** Asks for older items: the page above (scrolled near the top) or all of them (Home). */
  onNeedOlder?(want: 'page' | 'all'): void;
  announcement: string;
  controls?: TranscriptControls;
  /** Bring this item's row to the centre (find-in-chat); see ui-slice `revealItem`. */
  reveal?: Reveal | null;
  /** Find in chat's matches to mark. */
  findMarks?: FindMarks | null;
}

/**
 * Older items are asked for while the view is within this many screens of the top: early enough
 * that the next page is usually in before the wheel reaches the top. Wheeling the working chat to
 * its top at 800 px every 30 ms (bench/working-chat.ts) still waited at the top for pages with 4
 * screens (330–350 turns of the wheel against 240 with the whole chat loaded, load ≈ 11–15).
 */
const NEAR_TOP_SCREENS = 8;

/**
 * The conversation, virtualised: only the rows near the viewport are in the DOM (a 300-turn chat
 * would otherwise be ~50,000 elements), in reading order. aria-live is off on the log itself so
 * streaming text doesn't flood screen readers; a separate polite status announces when a reply
 * finishes. Mount it per chat (key by chat id): it opens at the end.
 *
 * A long chat arrives a page at a time (paged sessions): near the top the transcript asks for the
 * page above, which goes in above the rows without moving the view; Home asks for all of it.
 */
export function Transcript({ items = NO_ITEMS, loading = false, olderItems = 0, loadingOlder = false, onNeedOlder, announcement, controls, reveal: asked = null, findMarks = null }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<VirtualizerHandle>(null);
  const rows = useMemo(() => transcriptRows(items), [items]);
  const stick = useStickToBottom(scrollRef, rows.length, items);
  const shift = usePrepended(items);
  useFindHighlight(scrollRef, rows, findMarks);
  const prepareRows = usePrepareRows(rows, listRef);
  // The row holding focus stays mounted while scrolled away, or focus (and a half-typed edit) would be lost.
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const focusedRow = focusedKey === null ? -1 : rows.findIndex((row) => rowKey(row) === focusedKey);

  // Near the top with older items still in main: ask for the page above — when the user scrolls
  // there (not while the view follows the end: on opening, the rows' heights are still estimates
  // and the end may look near the top), and when the rows at the top change (a page arrived and
  // the view is still near the top). A chat shorter than its view, which cannot be scrolled, asks
  // at once. Not on every streamed frame, which would read the layout each time.
  const needOlder = useRef(onNeedOlder);
  needOlder.current = onNeedOlder;
  const { isFollowing } = stick;
  const askIfNearTop = useCallback(() => {
    const el = scrollRef.current;
    if (!el || olderItems === 0) return;
    const cannotScroll = el.scrollHeight <= el.clientHeight;
    if (cannotScroll || (!isFollowing() && el.scrollTop < el.clientHeight * NEAR_TOP_SCREENS)) needOlder.current?.('page');
  }, [olderItems, isFollowing]);
  useLayoutEffect(askIfNearTop, [askIfNearTop, items[0]?.id]);
  // Home with older items missing: they all load, then the view goes to the very first message.
  // Those rows go in without `shift`: kept at the distance from the end while they are measured,
  // the view would drift down from the top it is headed for.
  const [toTop, setToTop] = useState(false);
  useLayoutEffect(() => {
    if (!toTop || olderItems > 0) return;
    setToTop(false);
    scrollRef.current?.scrollTo({ top: 0, behavior: 'instant' });
  }, [toTop, olderItems, rows]);

  // A reveal asked for before this transcript was mounted (find in chat, the last time the chat
  // was open) is not this one's: the chat opens at its end.
  const [staleReveal] = useState(asked?.nonce);
  const reveal = asked && asked.nonce !== staleReveal ? asked : null;
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
      if (olderItems > 0) {
        setToTop(true);
        onNeedOlder?.('all');
      }
      event.currentTarget.scrollTo({ top: 0, behavior: 'instant' });
    } else if (event.key === 'End') {
      event.preventDefault();
      setToTop(false);
      stick.follow();
    }
  };
  const onScroll = () => {
    stick.onScroll();
    askIfNearTop();
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    if (toTop) setToTop(false); // the user scrolls on their own: Home's jump is off
    stick.onWheel(event);
  };
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const row = (event.target as Element).closest<HTMLElement>('[data-row-key]');
    setFocusedKey(row?.dataset.rowKey ?? null);
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedKey(null);
  };

  return (
    <>
      <div
        className="transcript"
        ref={scrollRef}
        onScroll={onScroll}
        onWheel={onWheel}
        onPointerDown={stick.onPointerDown}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={onBlur}
        tabIndex={0}
        role="log"
        aria-label="Conversation"
        aria-live="off"
      >
        {olderItems > 0 && (
          // Sticky and of no height, over the top of the rows: it never moves them.
          <div className="transcript-older" role="status" aria-live="polite">
            {loadingOlder && <span className="transcript-older-text">Loading earlier messages…</span>}
          </div>
        )}
        {loading ? (
          // Shown only if the chat takes a moment (CSS delays it): a quick open does not flash it.
          <p className="transcript-loading" role="status">
            Loading chat…
          </p>
        ) : rows.length === 0 && olderItems === 0 ? (
          <p className="transcript-empty">Ask Claude anything. For bigger jobs it plans the work in the open.</p>
        ) : (
          <RowsContext.Provider value={rows}>
          <Virtualizer
            ref={listRef}
            data={rows}
            shift={shift && !toTop}
            as={TranscriptInner}
            item={TranscriptRowBox}
            onResize={stick.onResize}
            onScroll={prepareRows}
            {...(focusedRow >= 0 ? { keepMounted: [focusedRow] } : {})}
          >
            {(row: TranscriptRow) =>
              row.kind === 'item' ? (
                <TranscriptEntry
                  key={rowKey(row)}
                  item={row.item}
                  {...(controls ? { sessionId: controls.sessionId, editable: controls.editable, retry: controls.retryId === row.item.id, retryNow: controls.retryNoticeId === row.item.id } : {})}
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
 * Whether items were just added before the first one (an older page loaded above): the virtualiser
 * then keeps the view where it is by measuring from the end. Only then — it must not be set for
 * appends or edits. Told by items, not rows: a page that ends inside a run of plan changes grows
 * the group at the top, whose row key (its first change) changes with it.
 */
function usePrepended(items: readonly TranscriptItem[]): boolean {
  const [seen, setSeen] = useState<{ first: string | undefined; count: number; shift: boolean }>({ first: items[0]?.id, count: items.length, shift: false });
  const first = items[0]?.id;
  if (first !== seen.first || items.length !== seen.count) {
    const prepended = items.length > seen.count && seen.first !== undefined && first !== seen.first && items.some((item) => item.id === seen.first);
    setSeen({ first, count: items.length, shift: prepended });
    return prepended;
  }
  return seen.shift;
}

import { type RefObject, useEffect, useLayoutEffect, useState } from 'react';
import type { VirtualizerHandle } from 'virtua';
import type { TranscriptItem } from '../../../../shared/transcript';
import { onIdle } from '../../lib/idle';
import { prepareMarkdown } from '../../markdown/prepare-markdown';
import { prepareOrder } from './prepare-order';
import type { TranscriptRow } from './transcript-rows';

/** How far around the view rows are prepared: about what the caches hold of a long working chat's rows, with room. */
const ABOVE = 150;
const BELOW = 50;
/** Below this much idle time left, one more reply (≈ 5 ms to lex and highlight a long one) waits for the next idle period. */
const MIN_IDLE_MS = 3;
/** At most this long per idle callback, however idle the page (an idle period can be 50 ms): a key pressed meanwhile waits for it. */
const SLICE_MS = 10;

/**
 * While the page is idle, lexes and highlights the finished replies around the view (nearest
 * first, up to ABOVE rows above and BELOW below) into the caches their Markdown reads, so a row
 * scrolled into view mounts without lexing or highlighting: a row mounts for the first time as it
 * is scrolled to, so a cache filled only by mounting does nothing for a first pass through a chat.
 * Returns `kick`, to call when the view moves (the virtualiser's onScroll): preparing stops once
 * the window around the view is done.
 */
export function usePrepareRows(rows: readonly TranscriptRow[], listRef: RefObject<VirtualizerHandle | null>): () => void {
  const [preparer] = useState(() => new RowPreparer(listRef));
  useLayoutEffect(() => preparer.setRows(rows), [preparer, rows]);
  useEffect(() => () => preparer.stop(), [preparer]);
  return preparer.kick;
}

class RowPreparer {
  private rows: readonly TranscriptRow[] = [];
  private readonly prepared = new WeakSet<TranscriptItem>();
  private cancel: (() => void) | null = null;

  constructor(private readonly list: RefObject<VirtualizerHandle | null>) {}

  setRows(rows: readonly TranscriptRow[]): void {
    this.rows = rows;
    this.kick();
  }

  readonly kick = (): void => {
    if (this.cancel) return; // already scheduled
    this.cancel = onIdle((deadline) => {
      this.cancel = null;
      const until = performance.now() + SLICE_MS;
      const list = this.list.current;
      if (!list) return;
      const first = list.findItemIndex(list.scrollOffset);
      const last = list.findItemIndex(list.scrollOffset + list.viewportSize);
      for (const index of prepareOrder(first, last, this.rows.length, ABOVE, BELOW)) {
        const row = this.rows[index];
        const item = row?.kind === 'item' ? row.item : null;
        if (item?.kind !== 'assistant' || item.status === 'streaming' || this.prepared.has(item)) continue;
        if (deadline.timeRemaining() < MIN_IDLE_MS || performance.now() > until) return this.kick();
        prepareMarkdown(item.id, item.text);
        this.prepared.add(item);
      }
    });
  };

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }
}

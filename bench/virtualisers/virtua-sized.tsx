import { useMemo, useRef } from 'react';
import { Virtualizer } from 'virtua';
import type { TranscriptItem } from '../../src/shared/transcript';
import { PlanChangeGroup } from '../../src/renderer/src/components/transcript/PlanChangeGroup';
import { rowKey } from '../../src/renderer/src/components/transcript/row-key';
import { TranscriptEntry } from '../../src/renderer/src/components/transcript/TranscriptEntry';
import { transcriptRows } from '../../src/renderer/src/components/transcript/transcript-rows';
import { useStickToBottom } from '../../src/renderer/src/components/transcript/use-stick-to-bottom';
import { RowsContext, TranscriptInner, TranscriptRowBox } from '../../src/renderer/src/components/transcript/virtual-parts';

/** The rows' average height in this chat (its true height ÷ its 1,200 rows ≈ 260 px; bench/virtualisers.ts prints the height). */
export const ROW_ESTIMATE = 260;

/**
 * virtua as the app's Transcript uses it — the same rows, row boxes and stick-to-bottom hook —
 * given an estimate of a row's height (`itemSize`), which the app's Transcript does not pass. For
 * the open and wheel-scroll measures only, to show what the estimate changes (no paging logic).
 */
export function SizedVirtuaTranscript({ items }: { items: TranscriptItem[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => transcriptRows(items), [items]);
  const stick = useStickToBottom(scrollRef, rows.length, items);
  return (
    <div className="transcript" ref={scrollRef} onScroll={stick.onScroll} onWheel={stick.onWheel} tabIndex={0} role="log" aria-label="Conversation" aria-live="off">
      <RowsContext.Provider value={rows}>
        <Virtualizer data={rows} itemSize={ROW_ESTIMATE} as={TranscriptInner} item={TranscriptRowBox} onResize={stick.onResize}>
          {(row: (typeof rows)[number]) => (row.kind === 'item' ? <TranscriptEntry key={rowKey(row)} item={row.item} /> : <PlanChangeGroup key={rowKey(row)} items={row.items} />)}
        </Virtualizer>
      </RowsContext.Provider>
    </div>
  );
}

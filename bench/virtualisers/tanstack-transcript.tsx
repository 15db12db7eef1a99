import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { TranscriptItem } from '../../src/shared/transcript';
import { PlanChangeGroup } from '../../src/renderer/src/components/transcript/PlanChangeGroup';
import { rowKey } from '../../src/renderer/src/components/transcript/row-key';
import { TranscriptEntry } from '../../src/renderer/src/components/transcript/TranscriptEntry';
import { transcriptRows } from '../../src/renderer/src/components/transcript/transcript-rows';

/**
 * The app's transcript (src/renderer/src/components/transcript/Transcript.tsx) as it would be with
 * @tanstack/react-virtual instead of virtua: the same rows, row boxes, classes and roles, and the
 * library's own chat features for what the app's Transcript does by hand — `anchorTo: 'end'`
 * keeps the view where it is when rows come in above and keeps the end in view while the last row
 * grows, `followOnAppend` follows new rows at the end, `scrollToEnd` opens at the end.
 * Only for bench/virtualisers.ts: never imported by the app.
 */
export function TanstackTranscript({ items }: { items: TranscriptItem[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => transcriptRows(items), [items]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    // A short reply or card; rows are measured as they are drawn.
    estimateSize: () => 120,
    getItemKey: (index) => rowKey(rows[index]!),
    overscan: 4,
    anchorTo: 'end',
    followOnAppend: true,
  });
  useLayoutEffect(() => {
    virtualizer.scrollToEnd();
    // Once, on opening: the anchor and follow options keep the end from then on.
  }, []);

  return (
    <div className="transcript" ref={scrollRef} tabIndex={0} role="log" aria-label="Conversation" aria-live="off">
      <div className="transcript-inner" style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          const row = rows[virtual.index]!;
          return (
            <div
              key={virtual.key}
              ref={virtualizer.measureElement}
              data-index={virtual.index}
              data-row={virtual.index}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${virtual.start}px)` }}
            >
              <div className={virtual.index === 0 ? 'transcript-row transcript-row--first' : 'transcript-row'} data-row-key={rowKey(row)}>
                {row.kind === 'item' ? <TranscriptEntry item={row.item} /> : <PlanChangeGroup items={row.items} />}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

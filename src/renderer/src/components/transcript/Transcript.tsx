import { useMemo, useRef } from 'react';
import type { TranscriptItem } from '../../../../shared/transcript';
import { PlanChangeGroup } from './PlanChangeGroup';
import { TranscriptEntry, type TranscriptControls } from './TranscriptEntry';
import { transcriptRows } from './transcript-rows';
import { useAutoScroll } from './use-auto-scroll';

const NO_ITEMS: TranscriptItem[] = [];

/**
 * The conversation. aria-live is off on the log itself so streaming text doesn't flood screen
 * readers; a separate polite status announces when a reply finishes.
 */
export function Transcript({ items = NO_ITEMS, announcement, controls }: { items?: TranscriptItem[]; announcement: string; controls?: TranscriptControls }) {
  const ref = useRef<HTMLDivElement>(null);
  const onScroll = useAutoScroll(ref, items);
  const rows = useMemo(() => transcriptRows(items), [items]);
  return (
    <>
      <div className="transcript" ref={ref} onScroll={onScroll} tabIndex={0} role="log" aria-label="Conversation" aria-live="off">
        <div className="transcript-inner">
          {items.length === 0 && <p className="transcript-empty">Ask Claude anything. For bigger jobs it plans the work in the open.</p>}
          {rows.map((row) =>
            row.kind === 'item' ? (
              <TranscriptEntry
                key={row.item.id}
                item={row.item}
                {...(controls ? { sessionId: controls.sessionId, editable: controls.editable, retry: controls.retryId === row.item.id } : {})}
              />
            ) : (
              <PlanChangeGroup key={row.id} items={row.items} />
            ),
          )}
        </div>
      </div>
      <div className="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
    </>
  );
}

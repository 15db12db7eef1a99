import { useRef } from 'react';
import type { TranscriptItem } from '../../../../shared/transcript';
import { TranscriptEntry } from './TranscriptEntry';
import { useAutoScroll } from './use-auto-scroll';

const NO_ITEMS: TranscriptItem[] = [];

/**
 * The conversation. aria-live is off on the log itself so streaming text doesn't flood screen
 * readers; a separate polite status announces when a reply finishes.
 */
export function Transcript({ items = NO_ITEMS, announcement }: { items?: TranscriptItem[]; announcement: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const onScroll = useAutoScroll(ref, items);
  return (
    <>
      <div className="transcript" ref={ref} onScroll={onScroll} tabIndex={0} role="log" aria-label="Conversation" aria-live="off">
        <div className="transcript-inner">
          {items.length === 0 && <p className="transcript-empty">Ask Claude anything. For bigger jobs it plans the work in the open.</p>}
          {items.map((item) => (
            <TranscriptEntry key={item.id} item={item} />
          ))}
        </div>
      </div>
      <div className="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
    </>
  );
}

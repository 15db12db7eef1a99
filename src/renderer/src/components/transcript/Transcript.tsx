import { useMemo, useRef } from 'react';
import type { TranscriptItem } from '../../../../shared/transcript';
import { PlanChangeGroup } from './PlanChangeGroup';
import { TranscriptEntry, type TranscriptControls } from './TranscriptEntry';
import { rowKey } from './row-key';
import { transcriptRows } from './transcript-rows';
import { useAutoScroll } from './use-auto-scroll';
import { type FindMarks, useFindHighlight } from './use-find-highlight';
import type { Reveal } from '../../store/ui-slice';
import { useRevealItem } from './use-reveal-item';

const NO_ITEMS: TranscriptItem[] = [];

/**
 * The conversation. aria-live is off on the log itself so streaming text doesn't flood screen
 * readers; a separate polite status announces when a reply finishes.
 */
interface Props {
  items?: TranscriptItem[];
  announcement: string;
  controls?: TranscriptControls;
  /** The item to bring into view (find in chat; ui-slice's revealItem). */
  reveal?: Reveal | null;
  /** Find in chat's matches to mark. */
  findMarks?: FindMarks | null;
}

export function Transcript({ items = NO_ITEMS, announcement, controls, reveal = null, findMarks = null }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const onScroll = useAutoScroll(ref, items);
  const rows = useMemo(() => transcriptRows(items), [items]);
  useRevealItem(ref, rows, reveal);
  useFindHighlight(ref, rows, findMarks);
  return (
    <>
      <div className="transcript" ref={ref} onScroll={onScroll} tabIndex={0} role="log" aria-label="Conversation" aria-live="off">
        <div className="transcript-inner">
          {items.length === 0 && <p className="transcript-empty">Ask Claude anything. For bigger jobs it plans the work in the open.</p>}
          {/* Each row carries its key, so find in chat can bring an item into view and mark it. */}
          {rows.map((row) => (
            <div key={rowKey(row)} className="transcript-row" data-row-key={rowKey(row)}>
              {row.kind === 'item' ? (
                <TranscriptEntry
                  item={row.item}
                  {...(controls ? { sessionId: controls.sessionId, editable: controls.editable, retry: controls.retryId === row.item.id } : {})}
                />
              ) : (
                <PlanChangeGroup items={row.items} />
              )}
            </div>
          ))}
        </div>
      </div>
      <div className="sr-only" role="status" aria-live="polite">
        {announcement}
      </div>
    </>
  );
}

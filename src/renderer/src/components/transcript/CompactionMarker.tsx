import { memo, useId } from 'react';
import type { CompactionItem } from '../../../../shared/transcript';
import { formatUsd } from '../../../../shared/usage';
import { Markdown } from '../../markdown/Markdown';
import { Icon } from '../icons/Icon';
import { useDisclosure } from './use-disclosure';
import '../context.css';

const tokens = (n: number) => (n >= 1_000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n));

/**
 * Where Claude's summary took over from the older turns (docs/contract.md §5, Compaction): a button
 * "Compacted …" that expands to the summary later requests carry. The turns above it stay here,
 * whole; only what Claude is sent changed.
 */
export const CompactionMarker = memo(function CompactionMarker({ item }: { item: CompactionItem }) {
  const [open, setOpen] = useDisclosure(item.id);
  const summaryId = useId();
  const how = item.trigger === 'manual' ? 'at your request' : "to fit the model's context window";
  return (
    <div className="compaction">
      <button type="button" className="transcript-disclosure" aria-expanded={open} aria-controls={summaryId} onClick={() => setOpen(!open)}>
        <Icon name="chevron" size={12} className={`chevron${open ? ' chevron--open' : ''}`} />
        <span>
          Compacted {item.upTo} older messages into a summary {how} · about {tokens(item.tokensBefore)} → {tokens(item.tokensAfter)} tokens ·{' '}
          {formatUsd(item.costUsd)}
        </span>
      </button>
      <div id={summaryId} className="compaction-summary" hidden={!open}>
        {open && (
          <>
            <p className="compaction-note">
              Claude is sent this summary in place of the older turns above; the latest turn before this marker and everything after it go in
              full. You still see them all.
            </p>
            <Markdown text={item.summary} cacheKey={item.id} findPart />
          </>
        )}
      </div>
    </div>
  );
});

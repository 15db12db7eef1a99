import { memo, useId, useRef } from 'react';
import { useScrollable } from '../../lib/use-scrollable';
import type { ThinkingItem } from '../../../../shared/transcript';
import { Icon } from '../icons/Icon';
import { useDisclosure } from './use-disclosure';
import './thinking.css';

/**
 * One thinking block of a reply (extended thinking): a button "Thinking" with aria-expanded,
 * collapsed by default (docs/contract.md §5), that shows its text. While it streams, a quiet marker
 * says so beside the button; the button's name stays exactly "Thinking".
 */
export const ThinkingBlock = memo(function ThinkingBlock({ item }: { item: ThinkingItem }) {
  const [open, setOpen] = useDisclosure(item.id);
  const bodyId = useId();
  const streaming = item.status === 'streaming';
  const body = useRef<HTMLDivElement>(null);
  const scrollable = useScrollable(body);
  return (
    <div className="thinking">
      <button type="button" className="thinking-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <Icon name="chevron" size={14} className={`chevron${open ? ' chevron--open' : ''}`} />
        Thinking
      </button>
      {streaming && <span className="thinking-live">thinking…</span>}
      {item.status === 'stopped' && <span className="thinking-live">stopped</span>}
      <div ref={body} id={bodyId} className="thinking-body" hidden={!open} tabIndex={open && scrollable ? 0 : undefined} data-find={item.redacted ? undefined : ''}>
        {item.redacted
          ? 'Part of Claude’s reasoning was encrypted by its safety systems. Waypoint passes it back to Claude unchanged; it cannot be shown.'
          : item.text}
      </div>
    </div>
  );
});

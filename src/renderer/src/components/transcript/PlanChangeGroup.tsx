import { memo, useId, useState } from 'react';
import type { PlanChangeItem } from '../../../../shared/transcript';
import { Icon } from '../icons/Icon';
import { changeSummary } from './transcript-rows';

/** A run of plan changes as one line ("Plan updated 6 times · latest: …") that expands to all of them. */
export const PlanChangeGroup = memo(function PlanChangeGroup({ items, openFor }: { items: PlanChangeItem[]; openFor?: number }) {
  const [open, setOpen] = useState(openFor !== undefined);
  // Revealing one of its changes (find-in-chat) opens the group, so the change itself is shown.
  const [revealed, setRevealed] = useState(openFor);
  if (openFor !== revealed) {
    setRevealed(openFor);
    if (openFor !== undefined) setOpen(true);
  }
  const listId = useId();
  const latest = items[items.length - 1];
  return (
    <div className="plan-change-group">
      <button type="button" className="plan-change-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        <Icon name="chevron" size={12} className={`chevron${open ? ' chevron--open' : ''}`} />
        <span>
          Plan updated {items.length} times{latest ? ` · latest: ${changeSummary(latest.text)}` : ''}
        </span>
      </button>
      <ul id={listId} className="plan-change-list" hidden={!open}>
        {open && items.map((item) => <li key={item.id}>{item.text}</li>)}
      </ul>
    </div>
  );
},
// Rows are rebuilt on every streamed frame; a run whose changes are the same objects is unchanged.
(a, b) => a.openFor === b.openFor && a.items.length === b.items.length && a.items.every((item, i) => item === b.items[i]));

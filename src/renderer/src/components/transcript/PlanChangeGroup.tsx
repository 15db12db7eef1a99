import { memo, useId, useLayoutEffect } from 'react';
import type { PlanChangeItem } from '../../../../shared/transcript';
import { Icon } from '../icons/Icon';
import { useWaypoint } from '../../store/store-context';
import { changeSummary } from './transcript-rows';
import { useDisclosure } from './use-disclosure';

/** A run of plan changes as one line ("Plan updated 6 times · latest: …") that expands to all of them. */
export const PlanChangeGroup = memo(function PlanChangeGroup({ items, openFor }: { items: PlanChangeItem[]; openFor?: number }) {
  // Keyed as its row is (row-key.ts): by its first change, so it keeps its state as it grows.
  const key = items[0]?.id ?? '';
  const [open, setOpen] = useDisclosure(key);
  // Revealing one of its changes (find-in-chat) opens the group, so the change itself is shown.
  const openForReveal = useWaypoint((s) => s.openForReveal);
  useLayoutEffect(() => {
    if (openFor !== undefined) openForReveal(key, openFor);
  }, [openForReveal, key, openFor]);
  const listId = useId();
  const latest = items[items.length - 1];
  return (
    <div className="plan-change-group">
      <button type="button" className="transcript-disclosure" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        <Icon name="chevron" size={12} className={`chevron${open ? ' chevron--open' : ''}`} />
        <span>
          Plan updated {items.length} times{latest ? ` · latest: ${changeSummary(latest.text)}` : ''}
        </span>
      </button>
      <ul id={listId} className="plan-change-list" hidden={!open}>
        {open && items.map((item) => <li key={item.id} data-find data-find-item={item.id}>{item.text}</li>)}
      </ul>
    </div>
  );
},
// Rows are rebuilt on every streamed frame; a run whose changes are the same objects is unchanged.
(a, b) => a.openFor === b.openFor && a.items.length === b.items.length && a.items.every((item, i) => item === b.items[i]));

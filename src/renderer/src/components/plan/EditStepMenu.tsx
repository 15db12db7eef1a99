import { type CSSProperties, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../icons/Icon';
import type { StepAction } from './step-actions';

interface Props {
  actions: readonly StepAction[];
  /** The id of the step's title, so "Edit step" is described by the step it edits. */
  describedBy: string;
  onAction(action: StepAction): void;
}

/** Room a menu of five items needs; below that much space under the button it opens upwards. */
const MENU_HEIGHT = 170;

/**
 * Where the menu goes: fixed to the viewport beside its button, so the plan's scrolling body
 * never clips it; above the button when there is no room below.
 */
function placeBeside(button: HTMLElement): CSSProperties {
  const rect = button.getBoundingClientRect();
  const right = Math.max(8, window.innerWidth - rect.right);
  return window.innerHeight - rect.bottom < MENU_HEIGHT ? { position: 'fixed', right, bottom: window.innerHeight - rect.top } : { position: 'fixed', right, top: rect.bottom };
}

/**
 * "Edit step": a menu button (docs/contract.md §5) with the actions that apply to the step. Arrow keys
 * move between the items, Enter or a click picks one, Escape (or a click elsewhere) closes it and
 * gives the focus back.
 */
export function EditStepMenu({ actions, describedBy, onAction }: Props) {
  const [open, setOpen] = useState<CSSProperties | null>(null);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const isOpen = open !== null;
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!isOpen) return;
    items()[0]?.focus({ preventScroll: true });
    const outside = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(null);
    };
    // Fixed beside its button: it follows the button when anything scrolls (the transcript does while Claude works).
    const follow = () => {
      if (button.current) setOpen(placeBeside(button.current));
    };
    document.addEventListener('mousedown', outside);
    window.addEventListener('scroll', follow, true);
    window.addEventListener('resize', follow);
    return () => {
      document.removeEventListener('mousedown', outside);
      window.removeEventListener('scroll', follow, true);
      window.removeEventListener('resize', follow);
    };
  }, [isOpen]);

  if (actions.length === 0) return null;
  const close = (refocus: boolean) => {
    setOpen(null);
    if (refocus) button.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => all[(i + all.length) % all.length]?.focus();
    if (event.key === 'ArrowDown') focus(at + 1);
    else if (event.key === 'ArrowUp') focus(at - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(all.length - 1);
    else if (event.key === 'Escape') close(true);
    else if (event.key === 'Tab') return close(false);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <span className="plan-step-menu">
      <button ref={button} type="button" className="plan-step-edit" aria-label="Edit step" aria-describedby={describedBy} title="Edit step"
        aria-haspopup="menu" aria-expanded={!!open} aria-controls={open ? menuId : undefined}
        onClick={(event) => setOpen(isOpen ? null : placeBeside(event.currentTarget))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(placeBeside(event.currentTarget));
          }
        }}>
        <Icon name="pencil" size={12} />
      </button>
      {open && (
        <div ref={menu} id={menuId} role="menu" aria-label="Edit step" className="plan-step-menu-list" style={open} onKeyDown={onMenuKey}>
          {actions.map((action) => (
            <button key={action} type="button" role="menuitem" tabIndex={-1} className="plan-step-menu-item"
              onClick={() => {
                close(action !== 'Rename');
                onAction(action);
              }}>
              {action}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}

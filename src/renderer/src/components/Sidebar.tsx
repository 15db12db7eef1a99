import { useEffect, useRef } from 'react';
import type { SessionSummary } from '../../../shared/transcript';
import { useWaypoint } from '../store/store-context';
import { CHATS_MENU_ID, SIDEBAR_ID } from './ChatsMenuButton';
import { SessionList } from './sessions/SessionList';

interface Props {
  sessions: SessionSummary[];
  currentSessionId: string | null;
  onNewChat(): void;
  onOpen(sessionId: string): void;
}

/**
 * The chats. Wide windows show it beside the chat; narrow ones (responsive.css) keep it behind
 * the header's "Chats" button as a drawer: focus moves in when it opens, Escape or a click
 * outside closes it, and focus goes back to the button.
 */
export function Sidebar({ sessions, currentSessionId, onNewChat, onOpen }: Props) {
  const open = useWaypoint((s) => s.sidebarOpen);
  const close = useWaypoint((s) => s.closeSidebar);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    const nav = ref.current;
    if (!nav) return;
    if (open) nav.querySelector<HTMLElement>('button, input')?.focus();
    else if (nav.contains(document.activeElement)) document.getElementById(CHATS_MENU_ID)?.focus();
  }, [open]);

  return (
    <>
      <nav
        id={SIDEBAR_ID}
        ref={ref}
        className="sidebar"
        aria-label="Chats"
        onKeyDown={(event) => {
          if (open && event.key === 'Escape') close();
        }}
      >
        <div className="sidebar-top">
          <span className="brand">Waypoint</span>
          <button type="button" className="btn btn--primary btn--block" onClick={onNewChat}>
            New chat
          </button>
        </div>
        <h2 className="sr-only">Chats</h2>
        <SessionList sessions={sessions} currentSessionId={currentSessionId} onOpen={onOpen} />
      </nav>
      {open && <div className="sidebar-backdrop" aria-hidden="true" onClick={close} />}
    </>
  );
}

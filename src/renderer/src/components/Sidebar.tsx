import type { SessionSummary } from '../../../shared/transcript';
import { SessionList } from './sessions/SessionList';

interface Props {
  sessions: SessionSummary[];
  currentSessionId: string | null;
  onNewChat(): void;
  onOpen(sessionId: string): void;
}

export function Sidebar({ sessions, currentSessionId, onNewChat, onOpen }: Props) {
  return (
    <nav className="sidebar" aria-label="Chats">
      <div className="sidebar-top">
        <span className="brand">Waypoint</span>
        <button type="button" className="btn btn--primary btn--block" onClick={onNewChat}>
          New chat
        </button>
      </div>
      <h2 className="sr-only">Chats</h2>
      <SessionList sessions={sessions} currentSessionId={currentSessionId} onOpen={onOpen} />
    </nav>
  );
}

import type { SessionSummary } from '../../../shared/transcript';

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
      <ul className="chat-list">
        {sessions.map((session) => (
          <li key={session.id}>
            <button
              type="button"
              className="chat-link"
              aria-current={session.id === currentSessionId ? 'page' : undefined}
              onClick={() => onOpen(session.id)}
              title={session.title}
            >
              <span className="chat-title">{session.title}</span>
              {session.planProgress && session.planProgress.status === 'active' && (
                <span className="chat-progress">
                  {session.planProgress.completed}/{session.planProgress.total}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import './sessions.css';
import type { SessionSummary } from '../../../../shared/transcript';
import { useWaypoint } from '../../store/store-context';
import { DeleteChatDialog } from './DeleteChatDialog';
import { SearchResults, SessionSearch } from './SessionSearch';
import { SessionItem } from './SessionItem';

interface Props {
  sessions: SessionSummary[];
  currentSessionId: string | null;
  onOpen(sessionId: string): void;
}

/** The sidebar's chats: a search box, then either the search results or every chat. */
export function SessionList({ sessions, currentSessionId, onOpen }: Props) {
  const searching = useWaypoint((s) => s.searchResults !== null);
  const rename = useWaypoint((s) => s.renameSession);
  const requestDelete = useWaypoint((s) => s.requestDelete);
  const exportChat = useWaypoint((s) => s.exportChat);
  const setLastError = useWaypoint((s) => s.setLastError);
  return (
    <>
      <div className="chat-search-row">
        <SessionSearch />
      </div>
      {searching ? (
        <SearchResults onOpen={onOpen} />
      ) : (
        <ul className="chat-list">
          {sessions.map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              current={session.id === currentSessionId}
              onOpen={() => onOpen(session.id)}
              onRename={(title) => void rename(session.id, title)}
              onDelete={() => requestDelete(session.id)}
              onExport={() => void exportChat(session.id).then((result) => !result.ok && setLastError(result.message))}
            />
          ))}
        </ul>
      )}
      <DeleteChatDialog />
    </>
  );
}

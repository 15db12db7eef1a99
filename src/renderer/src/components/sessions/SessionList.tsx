import './sessions.css';
import { memo } from 'react';
import type { SessionSummary } from '../../../../shared/transcript';
import type { ActionResult } from '../../store/types';
import { useWaypoint } from '../../store/store-context';
import { DeleteChatDialog } from './DeleteChatDialog';
import { SearchResults, SessionSearch } from './SessionSearch';
import { SessionItem, SessionItemParts } from './SessionItem';
import { VIRTUAL_FROM, VirtualChatList } from './VirtualChatList';

interface Props {
  sessions: SessionSummary[];
  currentSessionId: string | null;
  onOpen(sessionId: string): void;
}

/** The sidebar's chats: a search box, then either the search results or every chat. */
export function SessionList({ sessions, currentSessionId, onOpen }: Props) {
  const searching = useWaypoint((s) => s.searchResults !== null);
  const rename = useWaypoint((s) => s.renameSession);
  const pin = useWaypoint((s) => s.pinSession);
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
      ) : sessions.length >= VIRTUAL_FROM ? (
        <VirtualChatList
          sessions={sessions}
          row={(session) => (
            <SessionRow
              bare
              session={session}
              current={session.id === currentSessionId}
              onOpen={onOpen}
              rename={rename}
              pin={pin}
              requestDelete={requestDelete}
              exportChat={exportChat}
              setLastError={setLastError}
            />
          )}
        />
      ) : (
        <ul className="chat-list">
          {sessions.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              current={session.id === currentSessionId}
              onOpen={onOpen}
              rename={rename}
              pin={pin}
              requestDelete={requestDelete}
              exportChat={exportChat}
              setLastError={setLastError}
            />
          ))}
        </ul>
      )}
      <DeleteChatDialog />
    </>
  );
}

interface RowProps {
  /** Only what the item holds: the virtualised list makes the item (VirtualChatList.tsx). */
  bare?: boolean;
  session: SessionSummary;
  current: boolean;
  onOpen(sessionId: string): void;
  rename(sessionId: string, title: string): Promise<unknown>;
  pin(sessionId: string, pinned: boolean): Promise<unknown>;
  requestDelete(sessionId: string): void;
  exportChat(sessionId: string): Promise<ActionResult>;
  setLastError(message: string | null): void;
}

/**
 * One chat of the list, rendered again only when it changed: every reply's cost and every plan
 * step's progress replace the list, and a hundred chats re-rendering for each took frames from
 * the plan panel (issue 15 item 4).
 */
const SessionRow = memo(function SessionRow({ bare, session, current, onOpen, rename, pin, requestDelete, exportChat, setLastError }: RowProps) {
  const Item = bare ? SessionItemParts : SessionItem;
  return (
    <Item
      session={session}
      current={current}
      onOpen={() => onOpen(session.id)}
      onRename={(title) => void rename(session.id, title)}
      onPin={(pinned) => void pin(session.id, pinned)}
      onDelete={() => requestDelete(session.id)}
      onExport={() => void exportChat(session.id).then((result) => !result.ok && setLastError(result.message))}
    />
  );
});

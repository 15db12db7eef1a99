import { useWaypoint } from '../../store/store-context';

/** "Search chats": titles and messages; results replace the list while there is a query. */
export function SessionSearch() {
  const query = useWaypoint((s) => s.searchQuery);
  const search = useWaypoint((s) => s.searchSessions);
  return (
    <input
      type="search"
      className="chat-search"
      aria-label="Search chats"
      placeholder="Search chats"
      value={query}
      onChange={(e) => void search(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') void search('');
      }}
    />
  );
}

export function SearchResults({ onOpen }: { onOpen(sessionId: string): void }) {
  const results = useWaypoint((s) => s.searchResults);
  const search = useWaypoint((s) => s.searchSessions);
  if (!results) return null;
  return (
    <div className="chat-results">
      <p className="sr-only" role="status">
        {results.length === 1 ? '1 chat found' : `${results.length} chats found`}
      </p>
      {results.length === 0 ? (
        <p className="chat-results-empty">No chats match.</p>
      ) : (
        <ul className="chat-list" aria-label="Search results">
          {results.map(({ session, snippet }) => (
            <li key={session.id}>
              <button
                type="button"
                className="chat-link chat-link--result"
                onClick={() => {
                  onOpen(session.id);
                  void search('');
                }}
              >
                <span className="chat-title">{session.title}</span>
                <span className="chat-snippet">{snippet}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

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

/** How much of the text before a match a snippet keeps: the sidebar shows a line or two. */
const LEAD = 24;

/**
 * A result's snippet as before, match, after: main's snippet has 40 characters either side, more
 * than the sidebar's line shows before the match, so the part before is cut to a few words.
 */
function snippetParts(snippet: string, query: string): { before: string; match: string; after: string } | null {
  const needle = query.trim().toLowerCase();
  const at = needle ? snippet.toLowerCase().indexOf(needle) : -1;
  if (at < 0) return null;
  let before = snippet.slice(0, at);
  if (before.length > LEAD) {
    const cut = before.slice(-LEAD);
    const space = cut.indexOf(' ');
    before = `…${space >= 0 && space < cut.length - 1 ? cut.slice(space + 1) : cut}`;
  }
  return { before, match: snippet.slice(at, at + needle.length), after: snippet.slice(at + needle.length) };
}

function Snippet({ snippet, query }: { snippet: string; query: string }) {
  const parts = snippetParts(snippet, query);
  if (!parts) return <span className="chat-snippet">{snippet}</span>;
  return (
    <span className="chat-snippet">
      {parts.before}
      <mark>{parts.match}</mark>
      {parts.after}
    </span>
  );
}

export function SearchResults({ onOpen }: { onOpen(sessionId: string): void }) {
  const results = useWaypoint((s) => s.searchResults);
  const query = useWaypoint((s) => s.searchQuery);
  const search = useWaypoint((s) => s.searchSessions);
  if (!results) return null;
  return (
    <div className="chat-results">
      {/* One message: with no match it is the words shown; otherwise the count, for screen readers. */}
      <p className={results.length === 0 ? 'chat-results-empty' : 'sr-only'} role="status">
        {results.length === 0 ? 'No chats match.' : results.length === 1 ? '1 chat found' : `${results.length} chats found`}
      </p>
      {results.length > 0 && (
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
                <Snippet snippet={snippet} query={query} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

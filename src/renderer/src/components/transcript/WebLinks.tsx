import type { WebSource } from '../../../../shared/transcript';
import { safeHref } from '../../markdown/safe-url';
import './web-search.css';

/**
 * Web pages as a list of links (a web search's results, a reply's sources): the title is the
 * link, opened outside the app like any link in a reply; a URL that is not http(s) stays text.
 */
export function WebLinks({ label, pages, className }: { label: string; pages: readonly WebSource[]; className: string }) {
  return (
    <ul className={`web-links ${className}`} aria-label={label}>
      {pages.map((page, i) => {
        const href = safeHref(page.url);
        return (
          <li key={`${i}-${page.url}`}>
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer">
                {page.title}
              </a>
            ) : (
              <span>{page.title}</span>
            )}
            {page.pageAge && <span className="web-links-age"> · {page.pageAge}</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** What a web search card shows without being opened: the pages found, or why there are none. */
export function WebSearchOutcome({ query, results, status, error }: { query: string; results?: readonly WebSource[]; status: string; error?: string }) {
  if (status === 'error' && error) return <p className="web-search-error">{error}</p>;
  if (!results?.length) return status === 'done' ? <p className="web-search-none">No results.</p> : null;
  return <WebLinks label={`Results of the web search for "${query}"`} pages={results} className="web-search-results" />;
}

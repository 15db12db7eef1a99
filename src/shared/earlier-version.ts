/**
 * The title of a chat kept by an edit or a retry: "Title (earlier version)" (docs/contract.md §5). Main
 * makes it; the sidebar keeps the suffix visible when a long title is cut short.
 */
export const EARLIER_VERSION = '(earlier version)';

/** "Title (earlier version)", at most 200 characters (the longest title a rename takes). */
export function earlierTitle(title: string): string {
  const base = title.endsWith(EARLIER_VERSION) ? title.slice(0, -EARLIER_VERSION.length).trimEnd() : title;
  const room = 200 - EARLIER_VERSION.length - 1;
  return `${base.length > room ? `${base.slice(0, room - 1)}…` : base} ${EARLIER_VERSION}`;
}

/** The title without its "(earlier version)" suffix, and whether it had one. */
export function splitEarlierTitle(title: string): { base: string; earlier: boolean } {
  return title.endsWith(` ${EARLIER_VERSION}`) ? { base: title.slice(0, -EARLIER_VERSION.length - 1), earlier: true } : { base: title, earlier: false };
}

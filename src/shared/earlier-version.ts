/**
 * The title of a chat kept by an edit or a retry in older versions of Waypoint: "Title (earlier
 * version)". Edits and retries now make versions in place (docs/contract.md §5), but chats saved
 * that way stay listed and readable; the sidebar keeps the suffix visible when a long title is cut short.
 */
export const EARLIER_VERSION = '(earlier version)';

/** The title without its "(earlier version)" suffix, and whether it had one. */
export function splitEarlierTitle(title: string): { base: string; earlier: boolean } {
  return title.endsWith(` ${EARLIER_VERSION}`) ? { base: title.slice(0, -EARLIER_VERSION.length - 1), earlier: true } : { base: title, earlier: false };
}

/**
 * What the web shell and the page it serves agree on beyond the call contract.
 *
 * The close code a WebSocket gets when the shell already holds its most authenticated sockets
 * (one per open tab): the page says so instead of retrying. 4000–4999 are the application's own
 * codes (RFC 6455 §7.4.2).
 */
export const WS_CLOSE_TOO_MANY_TABS = 4001;

/** The close reason sent with it (at most 123 bytes, as a close frame allows). */
export function tooManyTabsReason(max: number): string {
  return `Too many Waypoint tabs are open (at most ${max}): close one, then reload.`;
}

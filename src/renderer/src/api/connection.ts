/**
 * The health of the link to main. Electron IPC is always `open`; the web shell's WebSocket
 * goes through `connecting` and, after a drop, `reconnecting` until it is back — or `refused`
 * for good when the shell says the page's token is not its own (a stale or mistyped link).
 */
export type ConnectionStatus =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; retryInMs: number }
  | { state: 'refused'; why: RefusedWhy };

/**
 * Why the shell will not serve this page: its token is not this start's (a stale or mistyped
 * link), or it holds as many tabs as it serves and this one was turned away.
 */
export type RefusedWhy = 'stale_link' | 'too_many_tabs';

/** What the web shell says of the page's token, asked after a failed handshake. */
export type TokenVerdict = 'valid' | 'invalid' | 'unknown';

export const LINK_INVALID_TITLE = 'This link is no longer valid';
export const LINK_INVALID_HELP =
  "Waypoint's web shell was restarted (each start makes a new token) or the address is incomplete. Open the URL the shell printed when it started, with its ?token=… at the end.";
export const LINK_INVALID_MESSAGE = `${LINK_INVALID_TITLE}. ${LINK_INVALID_HELP}`;

export const TOO_MANY_TABS_TITLE = 'Too many Waypoint tabs are open';
export const TOO_MANY_TABS_HELP = 'The web shell serves a limited number of tabs at once, and this one did not get a place. Close a Waypoint tab you no longer use, then reload this one.';
export const TOO_MANY_TABS_MESSAGE = `${TOO_MANY_TABS_TITLE}. ${TOO_MANY_TABS_HELP}`;

/** An api whose link can drop; the store shows "Reconnecting…" and re-fetches after reconnect. */
export interface ConnectionAware {
  connectionStatus(): ConnectionStatus;
  onConnectionStatus(listener: (status: ConnectionStatus) => void): () => void;
}

export function isConnectionAware(api: object): api is ConnectionAware {
  const candidate = api as Partial<ConnectionAware>;
  return typeof candidate.connectionStatus === 'function' && typeof candidate.onConnectionStatus === 'function';
}

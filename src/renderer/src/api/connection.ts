/**
 * The health of the link to main. Electron IPC is always `open`; the web shell's WebSocket
 * goes through `connecting` and, after a drop, `reconnecting` until it is back — or `refused`
 * for good when the shell says the page's token is not its own (a stale or mistyped link).
 */
export type ConnectionStatus =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; retryInMs: number }
  | { state: 'refused' };

/** What the web shell says of the page's token, asked after a failed handshake. */
export type TokenVerdict = 'valid' | 'invalid' | 'unknown';

export const LINK_INVALID_TITLE = 'This link is no longer valid';
export const LINK_INVALID_HELP =
  "Waypoint's web shell was restarted (each start makes a new token) or the address is incomplete. Open the URL the shell printed when it started, with its ?token=… at the end.";
export const LINK_INVALID_MESSAGE = `${LINK_INVALID_TITLE}. ${LINK_INVALID_HELP}`;

/** An api whose link can drop; the store shows "Reconnecting…" and re-fetches after reconnect. */
export interface ConnectionAware {
  connectionStatus(): ConnectionStatus;
  onConnectionStatus(listener: (status: ConnectionStatus) => void): () => void;
}

export function isConnectionAware(api: object): api is ConnectionAware {
  const candidate = api as Partial<ConnectionAware>;
  return typeof candidate.connectionStatus === 'function' && typeof candidate.onConnectionStatus === 'function';
}

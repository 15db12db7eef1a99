/**
 * The health of the link to main. Electron IPC is always `open`; the web shell's WebSocket
 * goes through `connecting` and, after a drop, `reconnecting` until it is back.
 */
export type ConnectionStatus =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; retryInMs: number };

/** An api whose link can drop; the store shows "Reconnecting…" and re-fetches after reconnect. */
export interface ConnectionAware {
  connectionStatus(): ConnectionStatus;
  onConnectionStatus(listener: (status: ConnectionStatus) => void): () => void;
}

export function isConnectionAware(api: object): api is ConnectionAware {
  const candidate = api as Partial<ConnectionAware>;
  return typeof candidate.connectionStatus === 'function' && typeof candidate.onConnectionStatus === 'function';
}

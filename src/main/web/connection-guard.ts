import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Limits on what a client can hold before it has shown the token. Without them ~19k slow,
 * unauthenticated connections reach the process's descriptor limit: new requests get
 * ECONNRESET and the session logs fail to open (EMFILE).
 */
export interface ConnectionLimits {
  /** Time to send the complete request headers (slowloris). */
  headersTimeoutMs: number;
  /** Time to send a whole request. */
  requestTimeoutMs: number;
  /** How often Node checks the two timeouts above. */
  checkIntervalMs: number;
  /** Connections that are not (yet) an authenticated WebSocket; past it the oldest is dropped. */
  maxUnauthenticated: number;
  /**
   * Authenticated WebSockets (about one per open tab). Each holds a descriptor and is sent every
   * event; uncapped, a runaway page or a script with the token opened thousands.
   */
  maxSockets: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  checkIntervalMs: 1_000,
  maxUnauthenticated: 128,
  maxSockets: 32,
};

export interface ConnectionGuard {
  /**
   * The socket showed the token: it becomes an authenticated WebSocket, off the unauthenticated
   * cap — unless `maxSockets` are open already. Then false, and it stays counted as
   * unauthenticated (so the refused ones, told why and closed, are bounded like any other).
   */
  admit(socket: Socket): boolean;
  /** Unauthenticated connections open now. */
  readonly unauthenticated: number;
  /** Authenticated WebSockets open now. */
  readonly sockets: number;
}

/**
 * Applies the limits to `server`. Dropping the oldest unauthenticated connection (instead of
 * refusing the newest) keeps the app reachable during a flood: a page load or a WebSocket
 * handshake from the real user still gets a slot, and open chats are never touched.
 */
export function guardConnections(server: Server, limits: ConnectionLimits): ConnectionGuard {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  // A Set iterates in insertion order: the first entry is the oldest connection.
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    while (open.size > limits.maxUnauthenticated) {
      const oldest = open.values().next().value as Socket;
      open.delete(oldest);
      oldest.destroy();
    }
  });
  const admitted = new Set<Socket>();
  return {
    admit(socket) {
      if (admitted.size >= limits.maxSockets) return false;
      open.delete(socket);
      admitted.add(socket);
      socket.once('close', () => admitted.delete(socket));
      return true;
    },
    get unauthenticated() {
      return open.size;
    },
    get sockets() {
      return admitted.size;
    },
  };
}

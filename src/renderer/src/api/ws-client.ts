import {
  type CallInput,
  type CallName,
  type CallOutput,
  CallError,
  calls,
  describeZodError,
  type WaypointApi,
  WaypointCallError,
  type WaypointEvent,
  type WsClientFrame,
} from '../../../shared/contract';
import { checkEvent } from '../../../shared/event-check';
import { backoffDelay } from './backoff';
import { WS_CLOSE_TOO_MANY_TABS } from '../../../shared/web-shell';
import { LINK_INVALID_MESSAGE, TOO_MANY_TABS_MESSAGE, type ConnectionAware, type ConnectionStatus, type RefusedWhy, type TokenVerdict } from './connection';
import { ServerFrame } from './server-frame';

/** The part of the WebSocket API we use: the browser's and the `ws` package's both fit. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'error', listener: () => void): void;
  /** The browser's CloseEvent and ws's both carry the close frame's code. */
  addEventListener(type: 'close', listener: (event: { code?: number }) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
export type SocketFactory = (url: string) => SocketLike;

export interface WsClientOptions {
  url: string;
  createSocket?: SocketFactory;
  /** Delay before reconnect attempt n (from 1). */
  delayMs?: (attempt: number) => number;
  /**
   * Asked when a handshake fails (a browser can't see its HTTP status): 'invalid' means the shell
   * is up and refuses this token, so reconnecting can never work and the client stops.
   */
  checkToken?: () => Promise<TokenVerdict>;
}

interface Pending {
  call: CallName;
  /** Frames not yet sent wait for the socket; only sent ones are lost when it drops. */
  frame: string | null;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const OPEN = 1;

export interface WsApi extends WaypointApi, ConnectionAware {
  /** Stops reconnecting and closes the socket; pending calls are rejected. */
  close(): void;
}

/**
 * The web shell's WaypointApi: JSON frames over one WebSocket. Calls made while the socket is
 * down wait for it; calls in flight when it drops are rejected (they may or may not have run,
 * so they are never resent), and the store re-fetches state once the socket is back.
 */
export function createWsApi(options: WsClientOptions): WsApi {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as SocketLike);
  const delayMs = options.delayMs ?? ((attempt: number) => backoffDelay(attempt));
  const listeners = new Set<(event: WaypointEvent) => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  const inFlight = new Map<number, Pending>();
  let nextId = 1;
  let status: ConnectionStatus = { state: 'connecting' };
  let socket: SocketLike | null = null;
  let attempt = 0;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const setStatus = (next: ConnectionStatus) => {
    status = next;
    for (const listener of [...statusListeners]) listener(next);
  };

  /** Rejects calls that were sent (they may or may not have run), or all of them on close(). */
  const rejectInFlight = (all = false, message = "Lost the connection to Waypoint's backend; try again.") => {
    for (const [id, pending] of inFlight) {
      if (pending.frame !== null && !all) continue;
      inFlight.delete(id);
      pending.reject(new WaypointCallError('internal', message));
    }
  };

  const reconnectLater = () => {
    attempt += 1;
    const wait = delayMs(attempt);
    setStatus({ state: 'reconnecting', attempt, retryInMs: wait });
    timer = setTimeout(connect, wait);
  };

  const refuse = (why: RefusedWhy) => {
    closed = true;
    rejectInFlight(true, why === 'too_many_tabs' ? TOO_MANY_TABS_MESSAGE : LINK_INVALID_MESSAGE);
    setStatus({ state: 'refused', why });
  };

  const onMessage = (data: unknown) => {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      // The shell only sends JSON; what else arrives is not read, but not hidden either.
      console.warn('Waypoint ignored a frame from the web shell that is not JSON.');
      return;
    }
    const frame = ServerFrame.safeParse(json);
    if (!frame.success) {
      console.warn(`Waypoint ignored an unreadable frame from the web shell: ${describeZodError(frame.error)}`);
      return;
    }
    if (frame.data.kind === 'events') {
      // One task for what main sent in one turn: the store takes it all before React renders.
      for (const payload of frame.data.events) {
        const event = checkEvent(payload, console.warn);
        if (event) for (const listener of [...listeners]) listener(event);
      }
      return;
    }
    const pending = inFlight.get(frame.data.id);
    if (!pending) return;
    inFlight.delete(frame.data.id);
    const result = frame.data.result;
    if (!result.ok) {
      const error = CallError.safeParse(result.error);
      pending.reject(
        error.success
          ? new WaypointCallError(error.data.code, error.data.message)
          : new WaypointCallError('internal', 'The backend sent an unreadable error.'),
      );
      return;
    }
    const output = calls[pending.call].output.safeParse(result.value);
    if (output.success) pending.resolve(output.data);
    else pending.reject(new WaypointCallError('internal', `Unexpected reply to ${pending.call}: ${describeZodError(output.error)}`));
  };

  const connect = () => {
    if (closed) return;
    const current = createSocket(options.url);
    socket = current;
    let opened = false;
    current.addEventListener('open', () => {
      if (socket !== current) return;
      opened = true;
      attempt = 0;
      setStatus({ state: 'open' });
      for (const pending of inFlight.values()) {
        if (pending.frame === null) continue;
        current.send(pending.frame);
        pending.frame = null;
      }
    });
    current.addEventListener('message', (event) => {
      if (socket === current) onMessage(event.data);
    });
    // 'error' is always followed by 'close'; reconnecting happens there, once.
    current.addEventListener('error', () => undefined);
    current.addEventListener('close', (event) => {
      if (socket !== current) return;
      socket = null;
      // The shell serves as many tabs as it will: retrying would only knock again. (Nothing sent
      // on this socket ran: the shell closed it without reading a frame.)
      if (!closed && event?.code === WS_CLOSE_TOO_MANY_TABS) return refuse('too_many_tabs');
      rejectInFlight();
      if (closed) return;
      if (opened || !options.checkToken) return reconnectLater();
      void options.checkToken().then(
        (verdict) => {
          if (closed) return;
          if (verdict === 'invalid') refuse('stale_link');
          else reconnectLater();
        },
        () => reconnectLater(),
      );
    });
  };

  connect();

  return {
    call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
      if (closed) return Promise.reject(new WaypointCallError('internal', 'The connection is closed.'));
      return new Promise<CallOutput<N>>((resolve, reject) => {
        const id = nextId++;
        const frame: WsClientFrame = { id, call: name, input };
        const text = JSON.stringify(frame);
        const sendNow = socket !== null && socket.readyState === OPEN;
        inFlight.set(id, { call: name, frame: sendNow ? null : text, resolve: resolve as (value: unknown) => void, reject });
        if (sendNow) socket?.send(text);
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connectionStatus: () => status,
    onConnectionStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = socket;
      socket = null;
      rejectInFlight(true);
      current?.close();
    },
  };
}

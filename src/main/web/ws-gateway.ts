import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { WsClientFrame, describeZodError, type CallResult, type WsServerFrame } from '../../shared/contract';
import { DisposableStore, toDisposable, type Disposable } from '../common/emitter';
import type { AppServices } from '../app/app-services';
import { TurnCork } from './turn-cork';

/** Frames bigger than this are refused by `ws` itself (the socket closes with 1009). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** The id used in an error result when the frame's own id could not be read. */
export const UNREADABLE_FRAME_ID = -1;

function send(socket: WebSocket, frame: WsServerFrame): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
}

function refusal(id: number, message: string): WsServerFrame {
  return { kind: 'result', id, result: { ok: false, error: { code: 'invalid_input', message } } };
}

/** Best effort: echo the id of a frame that is otherwise wrong, so the caller can match it. */
function readId(value: unknown): number {
  if (typeof value !== 'object' || value === null) return UNREADABLE_FRAME_ID;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : UNREADABLE_FRAME_ID;
}

/** Turns one incoming WebSocket message into exactly one result frame; never throws. */
export async function handleFrame(data: RawData, isBinary: boolean, services: AppServices, client?: string): Promise<WsServerFrame> {
  if (isBinary) return refusal(UNREADABLE_FRAME_ID, 'Binary frames are not supported: send a JSON text frame.');
  const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as Buffer).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refusal(UNREADABLE_FRAME_ID, 'Frame is not valid JSON: send {"id": number, "call": string, "input": object}.');
  }
  const frame = WsClientFrame.safeParse(json);
  if (!frame.success) {
    return refusal(readId(json), `Frame has the wrong shape (${describeZodError(frame.error)}): send {"id": number, "call": string, "input": object}.`);
  }
  let result: CallResult<unknown>;
  try {
    result = await services.router(frame.data.call, frame.data.input, client);
  } catch (error) {
    console.error('[waypoint] web shell router failed:', error);
    result = { ok: false, error: { code: 'internal', message: 'Waypoint hit an internal error. Details are in the log.' } };
  }
  return { kind: 'result', id: frame.data.id, result };
}

/**
 * One frame of a turn's events (the pump's batch) from their JSON, serialised once for every
 * client: the frame is `{kind: 'events', events}` (WsServerFrame) without parsing them again.
 */
function eventsFrame(payloads: readonly string[]): string {
  return `{"kind":"events","events":[${payloads.join(',')}]}`;
}

/**
 * Connects every socket of `wss` to the services: calls in, results out, and the event pump's
 * stream out to every client, a turn's events in one frame (ordering and coalescing happen in
 * the pump; turn-batch.ts says why one frame).
 */
export function attachGateway(wss: WebSocketServer, services: AppServices): Disposable {
  const store = new DisposableStore();
  const cork = new TurnCork();
  wss.on('connection', (socket: WebSocket) => {
    // Names this socket's calls, so what it started (an upload) goes when it closes.
    const client = randomUUID();
    socket.on('message', (data, isBinary) => {
      // The router sends what the pump holds, and the turn's events, before it answers.
      void handleFrame(data, isBinary, services, client).then((frame) => send(socket, frame));
    });
    socket.on('close', () => services.clientGone?.(client));
    // Oversized frames and protocol errors land here; ws closes that socket, the server lives on.
    socket.on('error', (error) => console.warn(`[waypoint] web shell socket closed: ${error.message}`));
  });
  store.add(
    services.onEvents((events) => {
      const frame = eventsFrame(events.map((event) => JSON.stringify(event)));
      for (const client of wss.clients) {
        if (client.readyState !== client.OPEN) continue;
        cork.hold(client);
        client.send(frame);
      }
    }),
  );
  store.add(toDisposable(() => cork.release()));
  store.add(toDisposable(() => wss.removeAllListeners('connection')));
  return store;
}

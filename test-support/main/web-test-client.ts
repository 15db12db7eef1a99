import { request } from 'node:http';
import WebSocket from 'ws';
import type { WaypointEvent, WsServerFrame } from '../../src/shared/contract';

/** Plain HTTP GET with full control over the path and headers (fetch forbids setting Host). */
export function httpGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves with the socket, or with the HTTP status the server refused with. */
export function wsConnect(
  url: string,
  options: WebSocket.ClientOptions = {},
): Promise<{ kind: 'open'; socket: WebSocket } | { kind: 'refused'; status: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once('open', () => resolve({ kind: 'open', socket }));
    socket.once('unexpected-response', (_req, res) => {
      resolve({ kind: 'refused', status: res.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

/**
 * A frame as tests read it: a call's result, or one event of an `events` frame (a turn's events
 * arrive as one frame; each is its own entry here, in order).
 */
export type SeenFrame = Extract<WsServerFrame, { kind: 'result' }> | { kind: 'event'; event: WaypointEvent };

/** Collects every frame a socket receives (events one by one), with a helper to wait for one. */
export function frameCollector(socket: WebSocket) {
  const frames: SeenFrame[] = [];
  /** How many `events` frames came: one per turn of main that sent any. */
  const batches: WaypointEvent[][] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as WsServerFrame;
    if (frame.kind === 'events') {
      batches.push(frame.events);
      for (const event of frame.events) frames.push({ kind: 'event', event });
    } else frames.push(frame);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    frames,
    batches,
    async next(predicate: (frame: SeenFrame) => boolean, timeoutMs = 5000): Promise<SeenFrame> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = frames.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

export function resultFor(id: number) {
  return (frame: SeenFrame) => frame.kind === 'result' && frame.id === id;
}

import { request } from 'node:http';
import WebSocket from 'ws';
import type { WsServerFrame } from '../../src/shared/contract';

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

/** Collects every frame a socket receives, with a helper to wait for one. */
export function frameCollector(socket: WebSocket) {
  const frames: WsServerFrame[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as WsServerFrame);
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    frames,
    async next(predicate: (frame: WsServerFrame) => boolean, timeoutMs = 5000): Promise<WsServerFrame> {
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
  return (frame: WsServerFrame) => frame.kind === 'result' && frame.id === id;
}

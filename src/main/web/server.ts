import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { WS_CLOSE_TOO_MANY_TABS, tooManyTabsReason } from '../../shared/web-shell';
import type { AppServices } from '../app/app-services';
import { DEFAULT_CONNECTION_LIMITS, guardConnections, type ConnectionLimits } from './connection-guard';
import { isAllowedHost, isAllowedOrigin, repeatedHeader, securityHeaders, tokenMatches } from './request-guard';
import { lookupStatic, openStatic } from '../renderer-host/static-files';
import { answerTokenCheck, TOKEN_CHECK_PATH } from './token-check';
import { MAX_FRAME_BYTES, attachGateway } from './ws-gateway';

export interface WebShellOptions {
  services: AppServices;
  /** The built renderer, e.g. rendererDirFor(import.meta.url) in the CLI entry. */
  staticDir: string;
  /** 0 = any free port. */
  port: number;
  /** Fixed token for tests; otherwise 32 random bytes per start. */
  token?: string;
  /** Connection limits (connection-guard.ts); the defaults suit the app. */
  limits?: Partial<ConnectionLimits>;
}

export interface WebShell {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export const WS_PATH = '/ws';
/** How long a socket turned away for too many tabs may take to answer its close frame. */
const REFUSED_SOCKET_GRACE_MS = 1000;

/**
 * The built renderer next to a built entry file: out/main/web.js -> out/renderer/. Pass the
 * entry's own import.meta.url (a shared chunk lives one folder deeper, in out/main/chunks).
 */
export function rendererDirFor(entryUrl: string): string {
  return fileURLToPath(new URL('../renderer/', entryUrl));
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`${text}\n`);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length}\r\n\r\n${reason}`);
}

/**
 * The web shell: the same services as the Electron shell, over a WebSocket on 127.0.0.1,
 * plus the built renderer as static files. Loopback only, token-gated, same-origin only.
 */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const staticDir = options.staticDir;
  let port = options.port;

  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  const server = createServer({ connectionsCheckingInterval: limits.checkIntervalMs }, (req: IncomingMessage, res: ServerResponse) => {
    void serveHttp(req, res).catch((error: unknown) => {
      console.error('[waypoint] web shell request failed:', error);
      if (!res.headersSent) reply(res, 500, 'Internal error.');
      else res.destroy();
    });
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const repeated = repeatedHeader(req.rawHeaders);
    if (repeated) return reply(res, 400, `Bad request: more than one ${repeated} header.`);
    if (!isAllowedHost(req.headers.host, port)) return reply(res, 421, 'Misdirected request: unknown Host.');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return reply(res, 405, 'Method not allowed.');
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const pathname = url.pathname;
    if (pathname === TOKEN_CHECK_PATH) return answerTokenCheck(res, url.searchParams.get('token'), token);
    const found = await lookupStatic(staticDir, pathname);
    if (found.kind === 'bad_request') return reply(res, 400, found.reason);
    if (found.kind === 'not_found') return reply(res, 404, 'Not found.');
    const isIndex = found.path.endsWith('index.html');
    const headers = (size: number) => ({
      ...securityHeaders(),
      'Content-Type': found.contentType,
      'Content-Length': size,
      'Cache-Control': isIndex ? 'no-store' : 'no-cache',
    });
    if (req.method === 'HEAD') return void res.writeHead(200, headers(found.size)).end();
    // What is sent is the file the lookup checked, opened and checked again (static-files.ts).
    const opened = await openStatic(found);
    if (!opened) return reply(res, 404, 'Not found.');
    res.writeHead(200, headers(opened.size));
    opened.stream.on('error', () => res.destroy()).pipe(res);
  }

  const guard = guardConnections(server, limits);

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const gateway = attachGateway(wss, options.services);

  // Every check happens before the upgrade, so a refused client never gets a socket.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // The path exactly as sent: no dot-segments or escapes that would normalise into /ws.
    const rawPath = (req.url ?? '').split('?')[0];
    if (rawPath !== WS_PATH || url.pathname !== WS_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    if (repeatedHeader(req.rawHeaders)) return refuseUpgrade(socket, 400, 'Bad Request');
    if (!isAllowedHost(req.headers.host, port)) return refuseUpgrade(socket, 421, 'Misdirected Request');
    if (!isAllowedOrigin(req.headers.origin, port)) return refuseUpgrade(socket, 403, 'Forbidden');
    if (!tokenMatches(url.searchParams.get('token'), token)) return refuseUpgrade(socket, 401, 'Unauthorized');
    if (!guard.admit(socket as Socket)) {
      // A browser cannot read a refused handshake's status, only a close frame: the socket is
      // opened to be closed at once with the reason, which the page shows (instead of retrying).
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('error', () => undefined); // a protocol error on its way out is no concern of ours
        ws.close(WS_CLOSE_TOO_MANY_TABS, tooManyTabsReason(limits.maxSockets));
        // A client that never answers the close is not waited for (ws would wait 30 s).
        setTimeout(() => ws.terminate(), REFUSED_SOCKET_GRACE_MS).unref();
      });
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('Web shell did not get a TCP port.');
  port = address.port;
  // An accept that fails later (EMFILE) must not become an unhandled 'error' that ends the process.
  server.on('error', (error) => console.error('[waypoint] web shell server error:', error.message));

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close() {
      closing ??= (async () => {
        gateway.dispose();
        for (const client of wss.clients) client.close(1001, 'Waypoint is shutting down');
        // Give clients a moment to answer the close handshake, then cut the stragglers.
        const deadline = Date.now() + 1000;
        while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { ConnectionStatus } from './connection';
import { LINK_INVALID_MESSAGE, TOO_MANY_TABS_MESSAGE } from './connection';
import { WS_CLOSE_TOO_MANY_TABS, tooManyTabsReason } from '../../../shared/web-shell';
import { checkToken, tokenCheckUrl } from './token-check';
import { createWsApi, type SocketLike, type WsApi } from './ws-client';

/**
 * A stand-in for the web shell's two doors, as the browser sees them: the WebSocket upgrade is
 * refused with 401 unless the token matches, and /token-check says 204 or 401. While `down`,
 * every connection is dropped unanswered, as when nothing (or a dying process) listens.
 */
async function startShell(token: string, state = { down: false, full: false }): Promise<{ port: number; close(): Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true });
  const server: Server = createServer((req, res) => {
    if (state.down) return void req.socket.destroy();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/token-check') return void res.writeHead(404).end();
    res.writeHead(url.searchParams.get('token') === token ? 204 : 401).end();
  });
  server.on('upgrade', (req, socket, head) => {
    if (state.down) return void socket.destroy();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.searchParams.get('token') !== token) return void socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', () => undefined);
      // As the web shell does past its cap (src/main/web/server.ts): opened, then closed with the reason.
      if (state.full) ws.close(WS_CLOSE_TOO_MANY_TABS, tooManyTabsReason(32));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await x.close();
});

function client(port: number, token: string): WsApi {
  const location = { protocol: 'http:', host: `127.0.0.1:${port}` };
  const api = createWsApi({
    url: `ws://127.0.0.1:${port}/ws?token=${token}`,
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    delayMs: () => 20,
    checkToken: () => checkToken(tokenCheckUrl(location, token)),
  });
  open.push(api);
  return api;
}

const until = async (api: WsApi, state: ConnectionStatus['state'], ms = 5000) => {
  const end = Date.now() + ms;
  while (api.connectionStatus().state !== state) {
    if (Date.now() > end) throw new Error(`still ${api.connectionStatus().state}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('a link whose token the web shell refuses', () => {
  it('is told as such once, stops reconnecting, and fails waiting calls with the reason', async () => {
    const shell = await startShell('right');
    open.push(shell);
    const api = client(shell.port, 'stale');
    const statuses: string[] = [];
    api.onConnectionStatus((s) => statuses.push(s.state));
    const waiting = api.call('listSessions', {}).catch((error: unknown) => error);
    await until(api, 'refused');
    expect(await waiting).toMatchObject({ message: LINK_INVALID_MESSAGE });
    await expect(api.call('listSessions', {})).rejects.toThrow(/closed/);
    await new Promise((r) => setTimeout(r, 150)); // several retry delays: no attempt is made
    expect(statuses).toEqual(['refused']);
    expect(api.connectionStatus()).toEqual({ state: 'refused', why: 'stale_link' });
  });

  it('is not confused with a shell that is down: that keeps reconnecting, and connects when it is back', async () => {
    const state = { down: true, full: false };
    const shell = await startShell('right', state);
    open.push(shell);
    const api = client(shell.port, 'right');
    const statuses: ConnectionStatus[] = [];
    api.onConnectionStatus((s) => statuses.push(s));
    const end = Date.now() + 5000;
    while (statuses.filter((s) => s.state === 'reconnecting').length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(statuses.filter((s) => s.state === 'reconnecting').length).toBeGreaterThanOrEqual(3);
    state.down = false;
    await until(api, 'open');
    expect(statuses.some((s) => s.state === 'refused')).toBe(false);
  });

  it('a shell that serves as many tabs as it will: told once as too many tabs, never retried, waiting calls fail saying so', async () => {
    const state = { down: false, full: true };
    const shell = await startShell('right', state);
    open.push(shell);
    const api = client(shell.port, 'right');
    const statuses: ConnectionStatus[] = [];
    api.onConnectionStatus((s) => statuses.push(s));
    const waiting = api.call('listSessions', {}).catch((error: unknown) => error);
    await until(api, 'refused');
    expect(await waiting).toMatchObject({ message: TOO_MANY_TABS_MESSAGE });
    state.full = false; // a slot is free now, but only a reload (a person's choice) takes it
    await new Promise((r) => setTimeout(r, 150)); // several retry delays: no attempt is made
    expect(statuses.filter((s) => s.state !== 'open')).toEqual([{ state: 'refused', why: 'too_many_tabs' }]);
  });

  it('checks the page token with the shell: valid, invalid, or unknown when nothing answers', async () => {
    const shell = await startShell('right');
    open.push(shell);
    const at = (token: string) => tokenCheckUrl({ protocol: 'http:', host: `127.0.0.1:${shell.port}` }, token);
    expect(await checkToken(at('right'))).toBe('valid');
    expect(await checkToken(at('wrong'))).toBe('invalid');
    expect(await checkToken('http://127.0.0.1:9/token-check?token=x')).toBe('unknown');
  });
});

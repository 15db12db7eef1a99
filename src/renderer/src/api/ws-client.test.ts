import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { WaypointCallError, type WaypointEvent, WsClientFrame, type WsServerFrame } from '../../../shared/contract';
import type { ConnectionStatus } from './connection';
import { createWsApi, type SocketLike, type WsApi } from './ws-client';
import { webSocketUrl } from './get-api';

/** A real WebSocket server on 127.0.0.1 answering a few calls the way the web shell does. */
async function startServer(port = 0) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const address = wss.address();
  if (!address || typeof address === 'string') throw new Error('unexpected address');
  const received: WsClientFrame[] = [];
  wss.on('connection', (socket, request) => {
    if (!request.url?.includes('token=secret')) return socket.close(4401, 'bad token');
    socket.on('message', (data) => {
      const frame = WsClientFrame.parse(JSON.parse(String(data)));
      received.push(frame);
      const reply = (result: WsServerFrame) => socket.send(JSON.stringify(result));
      if (frame.call === 'stop') reply({ kind: 'result', id: frame.id, result: { ok: true, value: { stopped: true } } });
      else if (frame.call === 'sendMessage')
        reply({ kind: 'result', id: frame.id, result: { ok: false, error: { code: 'busy', message: 'Claude is still working.' } } });
      else if (frame.call === 'getPlan') reply({ kind: 'result', id: frame.id, result: { ok: true, value: { plan: 'nonsense' } } });
      // other calls: no reply (used to test in-flight rejection)
    });
  });
  const broadcast = (event: WaypointEvent) => {
    for (const client of wss.clients) client.send(JSON.stringify({ kind: 'events', events: [event] } satisfies WsServerFrame));
  };
  const close = () =>
    new Promise<void>((resolve) => {
      for (const client of wss.clients) client.terminate();
      wss.close(() => resolve());
    });
  return { wss, port: address.port, received, broadcast, close };
}

const nodeSocket = (url: string) => new WebSocket(url) as unknown as SocketLike;
let clients: WsApi[] = [];
let servers: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  clients.forEach((c) => c.close());
  await Promise.all(servers.map((s) => s.close()));
  clients = [];
  servers = [];
});

function client(port: number, token = 'secret'): WsApi {
  const api = createWsApi({ url: `ws://127.0.0.1:${port}/ws?token=${token}`, createSocket: nodeSocket, delayMs: () => 30 });
  clients.push(api);
  return api;
}

function waitFor(api: WsApi, state: ConnectionStatus['state']): Promise<void> {
  if (api.connectionStatus().state === state) return Promise.resolve();
  return new Promise((resolve) => {
    const off = api.onConnectionStatus((s) => {
      if (s.state === state) {
        off();
        resolve();
      }
    });
  });
}

describe('createWsApi', () => {
  it('round-trips a call by id, validated against the contract', async () => {
    const server = await startServer();
    servers.push(server);
    const api = client(server.port);
    await expect(api.call('stop', { sessionId: 's1' })).resolves.toEqual({ stopped: true });
    expect(server.received[0]).toEqual({ id: 1, call: 'stop', input: { sessionId: 's1' } });
  });

  it('rejects with WaypointCallError carrying the code and message', async () => {
    const server = await startServer();
    servers.push(server);
    const api = client(server.port);
    const error = await api.call('sendMessage', { sessionId: 's1', text: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaypointCallError);
    expect(error).toMatchObject({ code: 'busy', message: 'Claude is still working.' });
  });

  it('rejects a reply that does not match the call output schema', async () => {
    const server = await startServer();
    servers.push(server);
    const api = client(server.port);
    await expect(api.call('getPlan', { sessionId: 's1' })).rejects.toThrow(/Unexpected reply to getPlan/);
  });

  it('delivers valid events to listeners and ignores invalid ones', async () => {
    const server = await startServer();
    servers.push(server);
    const api = client(server.port);
    const events: WaypointEvent[] = [];
    const off = api.onEvent((e) => events.push(e));
    await waitFor(api, 'open');
    server.broadcast({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'Hi' });
    server.broadcast({ type: 'bogus' } as unknown as WaypointEvent);
    server.broadcast({ type: 'run_state', sessionId: 's1', state: { status: 'idle' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(events.map((e) => e.type)).toEqual(['message_delta', 'run_state']);
    off();
    server.broadcast({ type: 'run_state', sessionId: 's1', state: { status: 'idle' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toHaveLength(2);
  });

  it('warns about each event it refuses, naming its type and the issue but not the payload', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = await startServer();
    servers.push(server);
    const api = client(server.port);
    const events: WaypointEvent[] = [];
    api.onEvent((e) => events.push(e));
    await waitFor(api, 'open');
    server.broadcast({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 42 } as unknown as WaypointEvent);
    server.broadcast({ type: 'run_state', sessionId: 's1', state: { status: 'sk-ant-test-never-logged' } } as unknown as WaypointEvent);
    server.broadcast({ type: 'run_state', sessionId: 's1', state: { status: 'idle' } });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    const lines = warn.mock.calls.map((args) => args.join(' '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/invalid event of type "message_delta".*text/);
    expect(lines[1]).toMatch(/invalid event of type "run_state".*state\.status/);
    for (const line of lines) expect(line).not.toContain('sk-ant-test');
    warn.mockRestore();
  });

  it('rejects calls in flight when the socket drops, reconnects, and works again', async () => {
    const server = await startServer();
    const port = server.port;
    const api = client(port);
    await waitFor(api, 'open');
    const pending = api.call('listSessions', {}); // the server never answers this one
    await new Promise((r) => setTimeout(r, 50));
    const statuses: string[] = [];
    api.onConnectionStatus((s) => statuses.push(s.state));
    await server.close();
    await expect(pending).rejects.toThrow(/Lost the connection/);
    expect(api.connectionStatus().state).toBe('reconnecting');

    const again = await startServer(port);
    servers.push(again);
    await waitFor(api, 'open');
    expect(statuses[0]).toBe('reconnecting');
    await expect(api.call('stop', { sessionId: 's2' })).resolves.toEqual({ stopped: true });
  });

  it('queues calls made while disconnected and sends them once connected', async () => {
    const server = await startServer();
    const port = server.port;
    await server.close();
    const api = client(port);
    const call = api.call('stop', { sessionId: 's3' });
    await waitFor(api, 'reconnecting');
    const again = await startServer(port);
    servers.push(again);
    await expect(call).resolves.toEqual({ stopped: true });
    expect(again.received).toHaveLength(1);
  });
});

describe('webSocketUrl', () => {
  it('builds the ws URL on the same host with the page token', () => {
    expect(webSocketUrl({ protocol: 'http:', host: '127.0.0.1:4312' }, 'a+b')).toBe('ws://127.0.0.1:4312/ws?token=a%2Bb');
    expect(webSocketUrl({ protocol: 'https:', host: 'x:1' }, '')).toBe('wss://x:1/ws?token=');
  });
});

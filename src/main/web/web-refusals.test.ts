import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebShell, type WebShell } from './server';
import { httpGet, wsConnect } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';

/**
 * The web shell's refusals not covered in server-http / server-ws tests: each one a way a
 * foreign page or process could try to reach the services (docs/contract.md §4).
 */
let dir: string;
let a: WebShell;
let b: WebShell;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-refusals-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Waypoint</title>');
  a = await startWebShell({ services: createTestServices(), staticDir: dir, port: 0 });
  b = await startWebShell({ services: createTestServices(), staticDir: dir, port: 0 });
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** A raw HTTP exchange, so headers (or their absence) are exactly what we write. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.on('data', (d) => (reply += d));
    socket.on('end', () => resolve(reply));
    socket.on('error', reject);
    socket.write(text);
  });
}

const ownOrigin = (shell: WebShell) => `http://127.0.0.1:${shell.port}`;

/** The status line of a raw upgrade request (the socket is closed once the head arrived). */
function upgradeStatus(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.on('data', (d) => {
      reply += d;
      if (reply.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(reply);
      }
    });
    socket.on('error', reject);
    socket.write(
      [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Origin: http://127.0.0.1:${port}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', '', ''].join('\r\n'),
    );
  });
}

describe('web shell refusals', () => {
  it('a token is good for its own start only: the token of another start is refused (401)', async () => {
    expect(a.token).not.toBe(b.token);
    const crossed = await wsConnect(`ws://127.0.0.1:${a.port}/ws?token=${encodeURIComponent(b.token)}`, { origin: ownOrigin(a) });
    expect(crossed).toEqual({ kind: 'refused', status: 401 });
    const own = await wsConnect(`ws://127.0.0.1:${a.port}/ws?token=${encodeURIComponent(a.token)}`, { origin: ownOrigin(a) });
    expect(own.kind).toBe('open');
    if (own.kind === 'open') own.socket.terminate();
  });

  it('the token only works in the WebSocket query, not as a header or cookie', async () => {
    const headers = { Authorization: `Bearer ${a.token}`, Cookie: `token=${a.token}` };
    expect(await wsConnect(`ws://127.0.0.1:${a.port}/ws`, { origin: ownOrigin(a), headers })).toEqual({ kind: 'refused', status: 401 });
  });

  it('refuses a request without Host, with a Host without our port, or a look-alike Host (421)', async () => {
    const noHost = await rawRequest(a.port, 'GET / HTTP/1.0\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.[01] 421 /);
    expect(noHost).not.toContain('<title>Waypoint</title>');
    for (const host of ['127.0.0.1', 'localhost', `127.0.0.1.evil.example:${a.port}`, `localhost.evil.example:${a.port}`, `[::1]:${a.port}`, `0.0.0.0:${a.port}`]) {
      expect((await httpGet(a.port, '/', { Host: host })).status, host).toBe(421);
    }
  });

  it('refuses a request or handshake with two Host or two Origin headers (400), whichever one a check would read', async () => {
    const own = `127.0.0.1:${a.port}`;
    // The control: one of each is served (200) and upgraded (101).
    expect(await rawRequest(a.port, `GET / HTTP/1.1\r\nHost: ${own}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 /);
    const handshake = (headers: string[]) =>
      rawRequest(
        a.port,
        [`GET /ws?token=${a.token} HTTP/1.1`, ...headers, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', '', ''].join('\r\n'),
      );
    const upgraded = await upgradeStatus(a.port, `/ws?token=${a.token}`);
    expect(upgraded).toMatch(/^HTTP\/1\.1 101 /);

    for (const hosts of [[own, 'evil.example'], ['evil.example', own], [own, own]]) {
      const lines = hosts.map((h) => `Host: ${h}`);
      const page = await rawRequest(a.port, `GET / HTTP/1.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`);
      expect(page, hosts.join(' + ')).toMatch(/^HTTP\/1\.1 400 /);
      expect(page).not.toContain('<title>Waypoint</title>');
      const reply = await handshake([...lines, `Origin: http://${own}`]);
      expect(reply, hosts.join(' + ')).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply.toLowerCase()).not.toContain('sec-websocket-accept');
    }
    for (const origins of [[`http://${own}`, 'http://evil.example'], [`http://${own}`, `http://${own}`]]) {
      const reply = await handshake([`Host: ${own}`, ...origins.map((o) => `Origin: ${o}`)]);
      expect(reply, origins.join(' + ')).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply.toLowerCase()).not.toContain('sec-websocket-accept');
    }
  });

  it('answers a CORS preflight with 405 and no Access-Control-* header', async () => {
    const res = await httpGet(
      a.port,
      '/ws',
      { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
      'OPTIONS',
    );
    expect(res.status).toBe(405);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('a refused WebSocket handshake carries no CORS header either, and never upgrades', async () => {
    const reply = await rawRequest(
      a.port,
      [
        `GET /ws?token=${a.token} HTTP/1.1`,
        `Host: 127.0.0.1:${a.port}`,
        'Origin: http://evil.example',
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        '',
        '',
      ].join('\r\n'),
    );
    expect(reply).toMatch(/^HTTP\/1\.1 403 /);
    expect(reply.toLowerCase()).not.toContain('access-control-');
    expect(reply.toLowerCase()).not.toContain('sec-websocket-accept');
  });

  it('refuses WebSocket upgrades on any other path, even with the token (404)', async () => {
    expect(await wsConnect(`ws://127.0.0.1:${a.port}/?token=${a.token}`, { origin: ownOrigin(a) })).toEqual({ kind: 'refused', status: 404 });
  });

  it('refuses dot-segment and encoded paths sent raw, exactly as written (a client library would normalise them first)', async () => {
    // The control: the same raw handshake on /ws itself upgrades, so a refusal below is the path's doing.
    const control = await upgradeStatus(a.port, `/ws?token=${a.token}`);
    expect(control).toMatch(/^HTTP\/1\.1 101 /);
    for (const path of [`/ws/../ws2?token=${a.token}`, `/ws2/../ws?token=${a.token}`, `/x/../ws?token=${a.token}`, `/ws/.?token=${a.token}`, `/%77s?token=${a.token}`]) {
      const reply = await upgradeStatus(a.port, path);
      expect(reply, path).toMatch(/^HTTP\/1\.1 404 /);
      expect(reply.toLowerCase(), path).not.toContain('sec-websocket-accept');
    }
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebShell, type WebShell } from './server';
import { frameCollector, httpGet, resultFor, wsConnect } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';

/**
 * A flood of slow, unauthenticated connections (slowloris: headers that never end) while a
 * chat is open. The cap keeps what they hold bounded, the header timeout ends them, and the
 * chat and a fresh page load carry on.
 */
const CAP = 24;
const FLOOD = 300;
let dir: string;
let shell: WebShell;
const services = createTestServices();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-flood-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Waypoint</title>');
  shell = await startWebShell({ services, staticDir: dir, port: 0, limits: { maxUnauthenticated: CAP, headersTimeoutMs: 1500, checkIntervalMs: 250 } });
});
afterAll(async () => {
  await shell.close();
  await rm(dir, { recursive: true, force: true });
});

function slowClient(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      // Headers that never end.
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `);
      resolve({ socket, closed });
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    socket.resume(); // read what the server sends (the 408, the end), so a server-side close is seen
    socket.once('error', reject);
  });
}

describe('connection flood', () => {
  it(`${FLOOD} slow unauthenticated connections: at most ${CAP} held, each ended by the header timeout, the chat unaffected`, async () => {
    const opened = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${shell.token}`, { origin: `http://127.0.0.1:${shell.port}` });
    if (opened.kind !== 'open') throw new Error('the chat socket was refused');
    const frames = frameCollector(opened.socket);

    const flood: Array<{ socket: Socket; closed: Promise<void> }> = [];
    for (let i = 0; i < FLOOD; i++) flood.push(await slowClient(shell.port));
    const stillOpen = () => flood.filter((c) => !c.socket.destroyed && c.socket.readyState === 'open').length;
    // Past the cap the oldest are dropped at once.
    await expect.poll(stillOpen, { timeout: 10_000 }).toBeLessThanOrEqual(CAP);

    // The open chat still answers, and a page load still gets through.
    opened.socket.send(JSON.stringify({ id: 1, call: 'sendMessage', input: { sessionId: 's1', text: 'during the flood' } }));
    const reply = await frames.next(resultFor(1), 10_000);
    expect(reply).toMatchObject({ kind: 'result', result: { ok: true } });
    expect(services.sent).toEqual(['during the flood']);
    expect((await httpGet(shell.port, '/')).status).toBe(200);

    // Slowloris gets nothing: every slow connection is closed by the header timeout.
    await Promise.all(flood.map((c) => c.closed));
    expect(stillOpen()).toBe(0);
    // The authenticated chat socket was never counted or cut.
    expect(opened.socket.readyState).toBe(opened.socket.OPEN);
    opened.socket.terminate();
  }, 60_000);
});

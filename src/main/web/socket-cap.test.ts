import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { WS_CLOSE_TOO_MANY_TABS, tooManyTabsReason } from '../../shared/web-shell';
import { startWebShell, type WebShell } from './server';
import { frameCollector, resultFor, wsConnect } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';

/**
 * Authenticated WebSockets are capped: each holds a descriptor and gets every event, and without
 * a cap a page (or a script with the token) opened thousands. The socket past the cap is told why
 * in its close frame; the tabs already open keep working, and a slot given back is taken again.
 */
const CAP = 4;
let dir: string;
let shell: WebShell;
const services = createTestServices();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-cap-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Waypoint</title>');
  shell = await startWebShell({ services, staticDir: dir, port: 0, limits: { maxSockets: CAP } });
});
afterAll(async () => {
  await shell.close();
  await rm(dir, { recursive: true, force: true });
});

const connect = async (): Promise<WebSocket> => {
  const opened = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${shell.token}`, { origin: `http://127.0.0.1:${shell.port}` });
  if (opened.kind !== 'open') throw new Error(`refused with ${opened.status}`);
  return opened.socket;
};
const closed = (socket: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));

describe('authenticated WebSockets are capped', () => {
  it(`past ${CAP} sockets the next is closed with a reason; the open ones still answer; a freed slot is taken again`, async () => {
    const held: WebSocket[] = [];
    for (let i = 0; i < CAP; i++) held.push(await connect());

    // Many more, as a runaway page or script would open: every one is turned away.
    const extra = await Promise.all(Array.from({ length: 40 }, () => connect().then((socket) => closed(socket))));
    for (const end of extra) expect(end).toEqual({ code: WS_CLOSE_TOO_MANY_TABS, reason: tooManyTabsReason(CAP) });

    for (const [i, socket] of held.entries()) {
      expect(socket.readyState, `socket ${i}`).toBe(socket.OPEN);
      const frames = frameCollector(socket);
      socket.send(JSON.stringify({ id: 1, call: 'sendMessage', input: { sessionId: 's1', text: `tab ${i}` } }));
      expect(await frames.next(resultFor(1))).toMatchObject({ result: { ok: true } });
    }

    // A tab closed gives its slot back.
    const gone = closed(held[0]!);
    held[0]!.close();
    await gone;
    const again = await connect();
    const frames = frameCollector(again);
    again.send(JSON.stringify({ id: 7, call: 'sendMessage', input: { sessionId: 's1', text: 'after a slot was freed' } }));
    expect(await frames.next(resultFor(7))).toMatchObject({ result: { ok: true } });
    const next = closed(await connect());
    expect((await next).code).toBe(WS_CLOSE_TOO_MANY_TABS);
    for (const socket of [again, ...held]) socket.terminate();
  }, 30_000);
});

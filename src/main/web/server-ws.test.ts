import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { startWebShell, type WebShell } from './server';
import { frameCollector, resultFor, wsConnect } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';
import { UNREADABLE_FRAME_ID } from './ws-gateway';

let dir: string;
let shell: WebShell;
let services: ReturnType<typeof createTestServices>;
const open: WebSocket[] = [];

const wsUrl = (token: string | null, host = '127.0.0.1') =>
  `ws://${host}:${shell.port}/ws${token === null ? '' : `?token=${encodeURIComponent(token)}`}`;

async function connectOk(): Promise<WebSocket> {
  const outcome = await wsConnect(wsUrl(shell.token), { origin: `http://127.0.0.1:${shell.port}` });
  if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
  open.push(outcome.socket);
  return outcome.socket;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-ws-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
  services = createTestServices();
  shell = await startWebShell({ services, staticDir: dir, port: 0 });
});
afterAll(async () => {
  for (const s of open) s.terminate();
  await shell.close();
  await rm(dir, { recursive: true, force: true });
});

describe('web shell WebSocket', () => {
  it('refuses a socket without the token, or with a wrong one, before the upgrade (401)', async () => {
    expect(await wsConnect(wsUrl(null))).toEqual({ kind: 'refused', status: 401 });
    expect(await wsConnect(wsUrl('wrong'))).toEqual({ kind: 'refused', status: 401 });
    expect(await wsConnect(wsUrl(`${shell.token}x`))).toEqual({ kind: 'refused', status: 401 });
    expect(await wsConnect(wsUrl(''))).toEqual({ kind: 'refused', status: 401 });
  });

  it('refuses a foreign Origin and a foreign Host even with the right token', async () => {
    expect(await wsConnect(wsUrl(shell.token), { origin: 'http://evil.example' })).toEqual({ kind: 'refused', status: 403 });
    expect(await wsConnect(wsUrl(shell.token), { origin: `http://127.0.0.1:${shell.port + 1}` })).toEqual({
      kind: 'refused',
      status: 403,
    });
    expect(await wsConnect(wsUrl(shell.token), { origin: 'null' })).toEqual({ kind: 'refused', status: 403 });
    expect(await wsConnect(wsUrl(shell.token), { headers: { Host: `evil.example:${shell.port}` } })).toEqual({
      kind: 'refused',
      status: 421,
    });
  });

  it('accepts the right token from our own origin (127.0.0.1 or localhost) and answers calls', async () => {
    const localhost = await wsConnect(wsUrl(shell.token, 'localhost'), { origin: `http://localhost:${shell.port}`, family: 4 });
    expect(localhost.kind).toBe('open');
    if (localhost.kind === 'open') open.push(localhost.socket);
    const socket = await connectOk();
    const frames = frameCollector(socket);
    socket.send(JSON.stringify({ id: 7, call: 'getAppInfo', input: {} }));
    expect(await frames.next(resultFor(7))).toEqual({
      kind: 'result',
      id: 7,
      result: { ok: true, value: { shell: 'web', version: '0.0.0-test', workspace: null } },
    });
    socket.send(JSON.stringify({ id: 8, call: 'sendMessage', input: { sessionId: 's1', text: 'hello' } }));
    expect(await frames.next(resultFor(8))).toMatchObject({ result: { ok: true, value: { itemId: 'item-1' } } });
    socket.send(JSON.stringify({ id: 9, call: 'getSession', input: { sessionId: 'zzz' } }));
    expect(await frames.next(resultFor(9))).toMatchObject({
      result: { ok: false, error: { code: 'not_found', message: 'No chat with id zzz.' } },
    });
  });

  it('answers malformed frames with clear errors, changes nothing, and keeps serving', async () => {
    const socket = await connectOk();
    const frames = frameCollector(socket);
    const before = services.sent.length;
    socket.send('this is not json');
    const notJson = await frames.next(resultFor(UNREADABLE_FRAME_ID));
    expect(notJson).toMatchObject({ result: { ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/not valid JSON/) } } });
    frames.frames.length = 0;
    socket.send(JSON.stringify({ id: 3, call: 'sendMessage', input: { sessionId: 's1', text: 'x' }, extra: true }));
    expect(await frames.next(resultFor(3))).toMatchObject({ result: { ok: false, error: { message: expect.stringMatching(/wrong shape/) } } });
    socket.send(JSON.stringify({ id: 4, call: 'deleteEverything', input: {} }));
    expect(await frames.next(resultFor(4))).toMatchObject({ result: { ok: false, error: { code: 'unknown_call' } } });
    socket.send(JSON.stringify({ id: 5, call: 'sendMessage', input: { sessionId: 's1', text: '   ' } }));
    expect(await frames.next(resultFor(5))).toMatchObject({ result: { ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/empty/) } } });
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await frames.next(resultFor(UNREADABLE_FRAME_ID))).toMatchObject({ result: { error: { message: expect.stringMatching(/Binary/) } } });
    socket.send(JSON.stringify([1, 2]));
    socket.send(JSON.stringify({ id: 6, call: 'getPlan', input: { sessionId: 's1' } }));
    expect(await frames.next(resultFor(6))).toMatchObject({ result: { ok: true, value: { plan: null } } });
    expect(services.sent.length).toBe(before);
  });

  it('refuses a 10 MB message with a clear "too long" error', async () => {
    const socket = await connectOk();
    const frames = frameCollector(socket);
    const before = services.sent.length;
    socket.send(JSON.stringify({ id: 11, call: 'sendMessage', input: { sessionId: 's1', text: 'a'.repeat(10_000_000) } }));
    const frame = await frames.next(resultFor(11), 15_000);
    expect(frame).toMatchObject({
      result: { ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/too long \(10,000,000 characters; the limit is 500,000\)/) } },
    });
    expect(services.sent.length).toBe(before);
  });

  it('closes a socket that sends a frame over 16 MiB (1009) and the server lives on', async () => {
    const socket = await connectOk();
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.on('error', () => undefined);
    socket.send('x'.repeat(16 * 1024 * 1024 + 10));
    expect(await closed).toBe(1009);
    const again = await connectOk();
    const frames = frameCollector(again);
    again.send(JSON.stringify({ id: 1, call: 'listSessions', input: {} }));
    expect(await frames.next(resultFor(1))).toMatchObject({ result: { ok: true, value: { sessions: [] } } });
  });

  it('broadcasts every event to all connected sockets', async () => {
    const a = frameCollector(await connectOk());
    const b = frameCollector(await connectOk());
    services.events.fire({ type: 'message_delta', sessionId: 's1', itemId: 'i1', text: 'Hel' });
    const isDelta = (f: { kind: string }) => f.kind === 'event';
    const expected = { kind: 'event', event: { type: 'message_delta', sessionId: 's1', itemId: 'i1', text: 'Hel' } };
    expect(await a.next(isDelta)).toEqual(expected);
    expect(await b.next(isDelta)).toEqual(expected);
  });

  it("never sends a waiting sub-agent's API history: the log keeps it, the shells do not need it", async () => {
    const socket = frameCollector(await connectOk());
    const history = [{ role: 'user' as const, content: 'SECRET-TASK-TEXT of the sub-agent' }];
    services.events.fire({ type: 'subagent_waiting', sessionId: 's1', waiting: { agentId: 'a-1', requestId: 'r-1', readOnly: false, history, parents: [{ agentId: 'a-0', readOnly: false, history }] } });
    // The next event of that chat comes after it: once that is in, so would it be.
    services.events.fire({ type: 'subagent_line', sessionId: 's1', agentId: 'a-1', line: { kind: 'message', text: 'after' } });
    await socket.next((f) => f.kind === 'event' && f.event.type === 'subagent_line');
    expect(socket.frames.filter((f) => f.kind === 'event').map((f) => f.event.type)).toEqual(['subagent_line']);
    expect(JSON.stringify(socket.frames)).not.toContain('SECRET-TASK-TEXT');
  });

  it('closes cleanly: sockets get 1001 and new connections are refused', async () => {
    const other = await startWebShell({ services: createTestServices(), staticDir: dir, port: 0 });
    const outcome = await wsConnect(`ws://127.0.0.1:${other.port}/ws?token=${other.token}`);
    if (outcome.kind !== 'open') throw new Error('expected open');
    const closed = new Promise<number>((resolve) => outcome.socket.once('close', (code) => resolve(code)));
    await other.close();
    expect(await closed).toBe(1001);
    await expect(wsConnect(`ws://127.0.0.1:${other.port}/ws?token=${other.token}`)).rejects.toThrow(/ECONNREFUSED/);
  });
});

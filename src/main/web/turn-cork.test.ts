import { Socket } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import type { WaypointEvent } from '../../shared/contract';
import { frameCollector, wsConnect } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';
import { startWebShell, type WebShell } from './server';

/** The events of one turn reach each client in one write of its socket, in order (ws-gateway.ts). */
let dir: string;
let shell: WebShell;
let services: ReturnType<typeof createTestServices>;
const open: WebSocket[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-cork-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
  services = createTestServices();
  shell = await startWebShell({ services, staticDir: dir, port: 0 });
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  for (const s of open) s.terminate();
  await shell.close();
  await rm(dir, { recursive: true, force: true });
});

async function connect(): Promise<WebSocket> {
  const outcome = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${encodeURIComponent(shell.token)}`, { origin: `http://127.0.0.1:${shell.port}` });
  if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
  open.push(outcome.socket);
  return outcome.socket;
}

const runState = (n: number): WaypointEvent => ({ type: 'run_state', sessionId: `chat-${n}`, state: { status: n % 2 ? 'running' : 'idle' } }) as WaypointEvent;

describe('events sent in one turn', () => {
  it('leave in one write per client, all of them, in order; the next turn writes again', async () => {
    const first = frameCollector(await connect());
    const second = frameCollector(await connect());
    // Every write a socket makes in this process (the clients here only read from now on).
    // Socket's stream internals (`_write`, `_writev`) are where every write becomes a system call.
    const internals = Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const writes = [vi.spyOn(internals, '_writev'), vi.spyOn(internals, '_write')];
    const count = () => writes.reduce((sum, spy) => sum + spy.mock.calls.length, 0);

    for (let n = 0; n < 10; n++) services.events.fire(runState(n));
    await first.next((frame) => frame.kind === 'event' && frame.event.type === 'run_state' && frame.event.sessionId === 'chat-9');
    await second.next((frame) => frame.kind === 'event' && frame.event.type === 'run_state' && frame.event.sessionId === 'chat-9');
    expect(count()).toBe(2);
    for (const { frames } of [first, second]) {
      expect(frames.flatMap((frame) => (frame.kind === 'event' && frame.event.type === 'run_state' ? [frame.event.sessionId] : []))).toEqual(Array.from({ length: 10 }, (_, n) => `chat-${n}`));
    }

    services.events.fire(runState(10));
    await first.next((frame) => frame.kind === 'event' && frame.event.type === 'run_state' && frame.event.sessionId === 'chat-10');
    await second.next((frame) => frame.kind === 'event' && frame.event.type === 'run_state' && frame.event.sessionId === 'chat-10');
    expect(count()).toBe(4);
  });
});

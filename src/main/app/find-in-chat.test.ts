import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import { frameCollector, resultFor, wsConnect } from '../../../test-support/main/web-test-client';
import { type CallResult, type WsServerFrame } from '../../shared/contract';
import { APP_INDEX_URL } from '../electron/app-protocol';
import { forwardIpc, type IpcMainLike, type WindowLike } from '../electron/ipc-forwarder';
import type { FrameLike } from '../electron/sender-check';
import { MemorySecretStore } from '../sessions/api-key-store';
import { startWebShell, type WebShell } from '../web/server';
import { createServices, type AppServices } from './services';

// Find in chat over the real services (a real chat answered by the scripted Messages API through
// the SDK), asked through the Electron bridge's forwarding half and the web shell's WebSocket:
// both go through the one call router, so both answer the same, and refuse bad input the same.

let dir: string;
let api: ScriptedServer;
let services: AppServices;
let shell: WebShell;
let socket: WebSocket;
let frames: ReturnType<typeof frameCollector>;
let ipcCall: (name: string, input: unknown) => Promise<unknown>;
let sessionId: string;
let nextId = 1;

async function overWs(name: string, input: unknown): Promise<unknown> {
  const id = nextId++;
  socket.send(JSON.stringify({ id, call: name, input }));
  const frame = (await frames.next(resultFor(id))) as Extract<WsServerFrame, { kind: 'result' }>;
  return frame.result;
}

async function bothShells(name: string, input: unknown): Promise<unknown> {
  const [ipc, ws] = await Promise.all([ipcCall(name, input), overWs(name, input)]);
  expect(ws).toEqual(ipc);
  return ipc;
}

/** Waits (without a fixed sleep) until the chat holds `count` finished replies. */
async function waitForReplies(count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const got = (await services.router('getSession', { sessionId })) as CallResult<{ transcript: Array<{ kind: string; status?: string }> }>;
    const done = got.ok ? got.value.transcript.filter((i) => i.kind === 'assistant' && i.status === 'done').length : -1;
    if (done === count) return;
    if (Date.now() > deadline) throw new Error(`${done} replies finished, expected ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-find-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
  api = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  services = await createServices({
    dataDir: join(dir, 'data'),
    workspace: dir,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-test-find-key', ANTHROPIC_BASE_URL: api.url },
  });
  const mainFrame: FrameLike = { url: APP_INDEX_URL };
  let handler: Parameters<IpcMainLike['handle']>[1] | undefined;
  const ipc: IpcMainLike = { handle: (_channel, listener) => void (handler = listener), removeHandler: () => undefined };
  const window: WindowLike = { isDestroyed: () => false, webContents: { mainFrame, send: () => undefined } };
  forwardIpc(ipc, window, services, { kind: 'app', dir, url: APP_INDEX_URL });
  ipcCall = (name, input) => handler!({ senderFrame: mainFrame }, name, input) as Promise<unknown>;
  shell = await startWebShell({ services, staticDir: dir, port: 0 });
  const outcome = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${shell.token}`, { origin: `http://127.0.0.1:${shell.port}` });
  if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
  socket = outcome.socket;
  frames = frameCollector(socket);

  const created = (await services.router('newSession', {})) as CallResult<{ id: string }>;
  if (!created.ok) throw new Error(created.error.message);
  sessionId = created.value.id;
  const messages = ['The Lighthouse stands on the cape.', 'Tell me about the weather.', 'And the lighthouse keeper?'];
  for (const [n, text] of messages.entries()) {
    const sent = await services.router('sendMessage', { sessionId, text });
    expect(sent).toMatchObject({ ok: true });
    await waitForReplies(n + 1);
  }
});

afterAll(async () => {
  socket?.terminate();
  await shell?.close();
  await services?.dispose();
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('findInChat through both shells', () => {
  it('finds every match of the whole chat in order, the same over IPC and the WebSocket', async () => {
    const result = (await bothShells('findInChat', { sessionId, query: 'LIGHTHOUSE' })) as CallResult<{
      matches: Array<{ itemId: string; snippet: string; occurrence: number }>;
      total: number;
      truncated: boolean;
    }>;
    if (!result.ok) throw new Error(result.error.message);
    // Each user message and its echoed reply ("You said: …"): 2 in the first turn, 2 in the third.
    expect(result.value.total).toBe(4);
    expect(result.value.truncated).toBe(false);
    const session = (await services.router('getSession', { sessionId })) as CallResult<{ transcript: Array<{ id: string; kind: string }> }>;
    if (!session.ok) throw new Error(session.error.message);
    const order = session.value.transcript.map((i) => i.id);
    const positions = result.value.matches.map((m) => order.indexOf(m.itemId));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(result.value.matches[0]!.snippet).toBe('The Lighthouse stands on the cape.');
  });

  it('refuses bad input with a clear error on both shells, and the chat is unchanged', async () => {
    const before = await services.router('getSession', { sessionId });
    const empty = await bothShells('findInChat', { sessionId, query: '   ' });
    expect(empty).toEqual({ ok: false, error: { code: 'invalid_input', message: 'query: Type something to find.' } });
    expect(await bothShells('findInChat', { sessionId, query: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/too long/) } });
    expect(await bothShells('findInChat', { sessionId, query: 'a', regex: true })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await bothShells('findInChat', { sessionId: 'no-such-chat', query: 'a' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await services.router('getSession', { sessionId })).toEqual(before);
  });
});

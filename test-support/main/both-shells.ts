import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { expect } from 'vitest';
import type { CallResult, WsServerFrame } from '../../src/shared/contract';
import { createServices, type AppServices } from '../../src/main/app/services';
import { APP_INDEX_URL } from '../../src/main/electron/app-protocol';
import { forwardIpc, type IpcMainLike, type WindowLike } from '../../src/main/electron/ipc-forwarder';
import type { FrameLike } from '../../src/main/electron/sender-check';
import { MemorySecretStore } from '../../src/main/settings/api-key-store';
import { startWebShell, type WebShell } from '../../src/main/web/server';
import { frameCollector, resultFor, wsConnect } from './web-test-client';

/**
 * The real services behind both shells' halves that face the page: the Electron bridge's
 * forwarding of calls (ipc-forwarder.ts) and the web shell's WebSocket, so a test asks the same call
 * both ways and sees both answer the same (one contract, one call router).
 */
export interface BothShells {
  dir: string;
  services: AppServices;
  /** Every frame the WebSocket received (events and results). */
  frames: ReturnType<typeof frameCollector>;
  ipcCall(name: string, input: unknown): Promise<unknown>;
  overWs(name: string, input: unknown): Promise<unknown>;
  /** The call over IPC and over the WebSocket at once: the answers must be equal. */
  both<T = unknown>(name: string, input: unknown): Promise<CallResult<T>>;
  close(): Promise<void>;
}

export async function startBothShells(prefix: string, anthropicBaseUrl: string): Promise<BothShells> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
  const services = await createServices({
    dataDir: join(dir, 'data'),
    workspace: dir,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-test-both-shells-key', ANTHROPIC_BASE_URL: anthropicBaseUrl },
  });
  const mainFrame: FrameLike = { url: APP_INDEX_URL };
  let handler: Parameters<IpcMainLike['handle']>[1] | undefined;
  const ipc: IpcMainLike = { handle: (_channel, listener) => void (handler = listener), removeHandler: () => undefined };
  const window: WindowLike = { isDestroyed: () => false, webContents: { mainFrame, send: () => undefined } };
  forwardIpc(ipc, window, services, { kind: 'app', dir, url: APP_INDEX_URL });
  const shell: WebShell = await startWebShell({ services, staticDir: dir, port: 0 });
  const outcome = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${shell.token}`, { origin: `http://127.0.0.1:${shell.port}` });
  if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
  const socket: WebSocket = outcome.socket;
  const frames = frameCollector(socket);
  let nextId = 1;

  const ipcCall = (name: string, input: unknown) => handler!({ senderFrame: mainFrame }, name, input) as Promise<unknown>;
  const overWs = async (name: string, input: unknown) => {
    const id = nextId++;
    socket.send(JSON.stringify({ id, call: name, input }));
    const frame = (await frames.next(resultFor(id))) as Extract<WsServerFrame, { kind: 'result' }>;
    return frame.result;
  };
  return {
    dir,
    services,
    frames,
    ipcCall,
    overWs,
    async both<T>(name: string, input: unknown) {
      const [viaIpc, viaWs] = await Promise.all([ipcCall(name, input), overWs(name, input)]);
      expect(viaWs).toEqual(viaIpc);
      return viaIpc as CallResult<T>;
    },
    async close() {
      socket.terminate();
      await shell.close();
      await services.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

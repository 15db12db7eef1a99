import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { frameCollector, resultFor, wsConnect, type SeenFrame } from '../../../test-support/main/web-test-client';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from '../app/services';
import { startWebShell, type WebShell } from './server';

// Issue 21, item 5, through the real web shell and the real services: an upload whose tab went
// away (its socket closed) is dropped at once, so its bytes do not wait out the idle expiry.

let dir: string;
let services: AppServices;
let shell: WebShell;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-abandoned-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
  services = await createServices({ dataDir: join(dir, 'data'), workspace: dir, shell: 'web', secretStore: new MemorySecretStore(), env: {} });
});
afterEach(async () => {
  await shell?.close();
  await services.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function connect(): Promise<{ socket: WebSocket; call: (call: string, input: object) => Promise<SeenFrame> }> {
  const outcome = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${encodeURIComponent(shell.token)}`, { origin: `http://127.0.0.1:${shell.port}` });
  if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
  const frames = frameCollector(outcome.socket);
  let id = 0;
  return {
    socket: outcome.socket,
    call: (call, input) => {
      id += 1;
      outcome.socket.send(JSON.stringify({ id, call, input }));
      return frames.next(resultFor(id));
    },
  };
}

describe('uploads of a web-shell tab that went away', () => {
  it('are dropped when its socket closes; another tab cannot continue them, and its own go on', async () => {
    // The shell tells the services a client went; the test learns when, so nothing races.
    let noticed: (client: string) => void = () => undefined;
    const gone = new Promise<string>((resolve) => (noticed = resolve));
    const observed: AppServices = {
      ...services,
      clientGone: (client: string) => {
        services.clientGone?.(client);
        noticed(client);
      },
    } as AppServices;
    shell = await startWebShell({ services: observed, staticDir: dir, port: 0 });

    const left = await connect();
    const stays = await connect();
    const started = await left.call('startUpload', { name: 'big.txt', size: 10, mediaType: 'text/plain' });
    const { uploadId } = (started as { result: { ok: true; value: { uploadId: string } } }).result.value;
    expect(await left.call('uploadChunk', { uploadId, offset: 0, data: 'YWJj' })).toMatchObject({ result: { ok: true, value: { received: 3 } } });
    const own = ((await stays.call('startUpload', { name: 'mine.txt', size: 3, mediaType: 'text/plain' })) as { result: { ok: true; value: { uploadId: string } } }).result.value.uploadId;

    left.socket.close();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((_, reject) => (timer = setTimeout(() => reject(new Error('the web shell never said the closed socket went away')), 10_000)));
    await Promise.race([gone, timeout]).finally(() => clearTimeout(timer));

    expect(await stays.call('uploadChunk', { uploadId, offset: 3, data: 'YWJj' })).toMatchObject({ result: { ok: false, error: { code: 'not_found', message: expect.stringMatching(/Attach the file again/) } } });
    expect(await stays.call('uploadChunk', { uploadId: own, offset: 0, data: 'YWJj' })).toMatchObject({ result: { ok: true, value: { received: 3 } } });
    expect(await stays.call('finishUpload', { uploadId: own })).toMatchObject({ result: { ok: true, value: { name: 'mine.txt', kind: 'text' } } });
    stays.socket.close();
  });
});

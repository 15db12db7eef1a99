import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebShell, type WebShell } from './server';
import { TOKEN_CHECK_PATH } from './token-check';
import { httpGet, wsConnect } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';

let root: string;
let shell: WebShell;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-token-check-'));
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Waypoint</title>');
  shell = await startWebShell({ services: createTestServices(), staticDir: root, port: 0 });
});
afterAll(async () => {
  await shell.close();
  await rm(root, { recursive: true, force: true });
});

const check = (token: string | null, headers: Record<string, string> = {}) =>
  httpGet(shell.port, `${TOKEN_CHECK_PATH}${token === null ? '' : `?token=${encodeURIComponent(token)}`}`, headers);

describe('GET /token-check', () => {
  it("answers 204 for this start's token and 401 for any other, with no body and no caching", async () => {
    const good = await check(shell.token);
    expect(good.status).toBe(204);
    expect(good.body).toBe('');
    expect(good.headers['cache-control']).toBe('no-store');
    expect(good.headers['content-security-policy']).toBeTruthy();
    for (const token of [`${shell.token}x`, '', null]) expect((await check(token)).status).toBe(401);
  });

  it('says exactly what the WebSocket handshake says for the same token', async () => {
    for (const token of [shell.token, 'stale-token-of-an-earlier-start']) {
      const ws = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${encodeURIComponent(token)}`);
      const status = (await check(token)).status;
      if (ws.kind === 'open') {
        ws.socket.close();
        expect(status).toBe(204);
      } else {
        expect(ws.status).toBe(401);
        expect(status).toBe(401);
      }
    }
  });

  it('is guarded like every other request: a foreign Host is refused', async () => {
    expect((await check(shell.token, { Host: `evil.example:${shell.port}` })).status).toBe(421);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../renderer-host/csp';
import { rendererDirFor, startWebShell, type WebShell } from './server';
import { httpGet } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';

let root: string;
let staticDir: string;
let shell: WebShell;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-web-'));
  staticDir = join(root, 'renderer');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Waypoint</title>');
  await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log("hi")');
  await writeFile(join(staticDir, 'assets', 'app.css'), 'body{}');
  await writeFile(join(staticDir, 'assets', 'logo.svg'), '<svg/>');
  await writeFile(join(root, 'secret.txt'), 'TOP SECRET');
  await symlink(join(root, 'secret.txt'), join(staticDir, 'assets', 'escape.txt'));
  shell = await startWebShell({ services: createTestServices(), staticDir, port: 0 });
});
afterAll(async () => {
  await shell.close();
  await rm(root, { recursive: true, force: true });
});

describe('web shell over HTTP', () => {
  it('announces a loopback URL with a 32-byte random token', async () => {
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    expect(shell.url).toBe(`http://127.0.0.1:${shell.port}/?token=${shell.token}`);
    const other = await startWebShell({ services: createTestServices(), staticDir, port: 0 });
    expect(other.token).not.toBe(shell.token);
    await other.close();
  });

  it('binds 127.0.0.1 only: other interfaces of this machine refuse the connection', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4' && !a.internal)
      .map((a) => a!.address);
    const targets = [...external, '::1'];
    for (const host of targets) {
      const outcome = await new Promise<string>((resolve) => {
        const sock = connect({ host, port: shell.port });
        sock.once('connect', () => {
          sock.destroy();
          resolve('connected');
        });
        sock.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      expect(outcome, `connecting via ${host}`).not.toBe('connected');
    }
  });

  it('serves index.html for / with the security headers, no-store and no CORS', async () => {
    const res = await httpGet(shell.port, '/', { Origin: 'http://evil.example' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Waypoint</title>');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect((await httpGet(shell.port, '/index.html')).headers['cache-control']).toBe('no-store');
  });

  it('serves assets with the right content types', async () => {
    const js = await httpGet(shell.port, '/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.body).toBe('console.log("hi")');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect((await httpGet(shell.port, '/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await httpGet(shell.port, '/assets/logo.svg')).headers['content-type']).toBe('image/svg+xml');
    const head = await httpGet(shell.port, '/assets/app.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('refuses directory traversal in every spelling, and symlinks out of the root', async () => {
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/%00index.html']) {
      const res = await httpGet(shell.port, path);
      expect([400, 404], path).toContain(res.status);
      expect(res.body, path).not.toContain('TOP SECRET');
      expect(res.headers['content-security-policy'], path).toBe(CONTENT_SECURITY_POLICY);
    }
    const link = await httpGet(shell.port, '/assets/escape.txt');
    expect(link.status).toBe(404);
    expect(link.body).not.toContain('TOP SECRET');
  });

  it('answers 404 for missing files and directories, 405 for other methods, 400 for bad encoding', async () => {
    expect((await httpGet(shell.port, '/nope.js')).status).toBe(404);
    expect((await httpGet(shell.port, '/assets')).status).toBe(404);
    expect((await httpGet(shell.port, '/', {}, 'POST')).status).toBe(405);
    expect((await httpGet(shell.port, '/%E0%A4%A')).status).toBe(400);
  });

  it('finds the built renderer next to the built entry file', () => {
    expect(rendererDirFor('file:///app/out/main/web.js')).toBe(join('/app/out/renderer') + '/');
  });

  it('refuses a foreign Host header (DNS rebinding) but accepts localhost:PORT', async () => {
    const evil = await httpGet(shell.port, '/', { Host: `evil.example:${shell.port}` });
    expect(evil.status).toBe(421);
    expect(evil.body).not.toContain('Waypoint');
    expect((await httpGet(shell.port, '/', { Host: '127.0.0.1:1' })).status).toBe(421);
    expect((await httpGet(shell.port, '/', { Host: `localhost:${shell.port}` })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { link, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../renderer-host/csp';
import { lookupStatic } from '../renderer-host/static-files';
import { APP_INDEX_URL, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';

let root: string;
let handler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-app-protocol-'));
  const renderer = join(root, 'renderer');
  await mkdir(join(renderer, 'assets'), { recursive: true });
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>Waypoint</title>');
  await writeFile(join(renderer, 'assets', 'index-abc.js'), 'export const x = 1;');
  await writeFile(join(root, 'secret.txt'), 'TOP SECRET');
  await symlink(join(root, 'secret.txt'), join(renderer, 'assets', 'escape.txt'));
  handler = createAppProtocolHandler(renderer);
});
afterAll(() => rm(root, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('app:// protocol (the packaged renderer, instead of file://)', () => {
  it('is a secure standard scheme, and the index URL is on it', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } });
    expect(APP_INDEX_URL).toBe('app://waypoint/index.html');
  });

  it('serves the renderer files with their content type and the app CSP', async () => {
    const index = await get(APP_INDEX_URL);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>Waypoint</title>');
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const script = await get('app://waypoint/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('export const x = 1;');
    expect((await get('app://waypoint/')).status).toBe(200);
    const head = await get(APP_INDEX_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('refuses traversal, symlinks out of the folder, other hosts and methods, with the CSP still set', async () => {
    for (const url of ['app://waypoint/../secret.txt', 'app://waypoint/%2e%2e/secret.txt', 'app://waypoint/assets/..%2f..%2fsecret.txt', 'app://waypoint/assets/escape.txt']) {
      const res = await get(url);
      expect([400, 404], url).toContain(res.status);
      expect(await res.text(), url).not.toContain('TOP SECRET');
      expect(res.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
    }
    expect((await get('app://evil/index.html')).status).toBe(404);
    expect((await get('app://waypoint/missing.js')).status).toBe(404);
    expect((await get('app://waypoint/assets')).status).toBe(404);
    expect((await handler(new Request(APP_INDEX_URL, { method: 'POST', body: 'x' }))).status).toBe(405);
  });
});

describe('app:// serves the file its lookup checked', () => {
  // The folder changed between the lookup and the read, as a racing process would change it: the
  // name the lookup approved now leads elsewhere (a symlink, or a second name of another file).
  const swapAfterLookup = (swap: (renderer: string) => Promise<void>) => async (dir: string, urlPath: string) => {
    const found = await lookupStatic(dir, urlPath);
    await swap(dir);
    return found;
  };
  // Removed first: writing through the swapped name would write the secret file itself.
  const freshAsset = async () => {
    await rm(join(root, 'renderer', 'assets', 'index-abc.js'), { force: true });
    await writeFile(join(root, 'renderer', 'assets', 'index-abc.js'), 'export const x = 1;');
  };

  it('refuses (404) a file swapped for a symlink or a hard link after the lookup, and sends none of it', async () => {
    const swaps: Record<string, (renderer: string) => Promise<void>> = {
      symlink: async (renderer) => {
        await symlink(join(root, 'secret.txt'), join(renderer, 'swap-link'));
        await rename(join(renderer, 'swap-link'), join(renderer, 'assets', 'index-abc.js'));
      },
      'hard link': async (renderer) => {
        await link(join(root, 'secret.txt'), join(renderer, 'swap-hard'));
        await rename(join(renderer, 'swap-hard'), join(renderer, 'assets', 'index-abc.js'));
      },
    };
    for (const [name, swap] of Object.entries(swaps)) {
      await freshAsset();
      const racing = createAppProtocolHandler(join(root, 'renderer'), swapAfterLookup(swap));
      const res = await racing(new Request('app://waypoint/assets/index-abc.js'));
      expect(res.status, name).toBe(404);
      expect(await res.text(), name).not.toContain('TOP SECRET');
      expect(res.headers.get('content-security-policy'), name).toBe(CONTENT_SECURITY_POLICY);
    }
    await freshAsset();
  });

  it('with no swap, the same handler serves the file whole', async () => {
    await freshAsset();
    const plain = createAppProtocolHandler(join(root, 'renderer'), swapAfterLookup(async () => undefined));
    const res = await plain(new Request('app://waypoint/assets/index-abc.js'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('export const x = 1;');
  });
});

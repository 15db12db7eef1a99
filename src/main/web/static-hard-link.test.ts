import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { link, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupStatic, openStatic } from '../renderer-host/static-files';
import { startWebShell, type WebShell } from './server';
import { httpGet } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';

/**
 * A hard link is a second name for a file, with no "real path" that leads out of the folder: one
 * planted in the served folder under a harmless name (assets/chunk.js) could be any file on the
 * same disk. The shell serves only files with one link, and sends the very file it checked.
 */
let root: string;
let staticDir: string;
let shell: WebShell;

const read = async (stream: NodeJS.ReadableStream) => {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-hardlink-'));
  staticDir = join(root, 'renderer');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Waypoint</title>');
  await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log("hi")');
  await writeFile(join(root, 'api-key.txt'), 'TOP SECRET');
  await link(join(root, 'api-key.txt'), join(staticDir, 'assets', 'chunk.js'));
  shell = await startWebShell({ services: createTestServices(), staticDir, port: 0 });
});
afterAll(async () => {
  await shell.close();
  await rm(root, { recursive: true, force: true });
});

describe('hard links in the served folder', () => {
  it('a file with a second name outside is not served (404); its neighbours are', async () => {
    expect((await httpGet(shell.port, '/assets/app.js')).body).toBe('console.log("hi")');
    for (const method of ['GET', 'HEAD']) {
      const res = await httpGet(shell.port, '/assets/chunk.js', {}, method);
      expect(res.status, method).toBe(404);
      expect(res.body, method).not.toContain('TOP SECRET');
    }
  });

  it('the file opened is the one checked: swapped or linked after the lookup, it is refused', async () => {
    const found = await lookupStatic(staticDir, '/index.html');
    if (found.kind !== 'file') throw new Error(`index.html not found: ${found.kind}`);
    const opened = await openStatic(found);
    expect(opened && (await read(opened.stream))).toBe('<!doctype html><title>Waypoint</title>');

    // Another file renamed over it between the lookup and the open.
    const before = await lookupStatic(staticDir, '/assets/app.js');
    if (before.kind !== 'file') throw new Error('app.js not found');
    await writeFile(join(root, 'other.js'), 'SWAPPED IN');
    await rename(join(root, 'other.js'), join(staticDir, 'assets', 'app.js'));
    expect(await openStatic(before)).toBeNull();

    // The same file given a second name after the lookup.
    const again = await lookupStatic(staticDir, '/assets/app.js');
    if (again.kind !== 'file') throw new Error('app.js not found');
    await link(join(staticDir, 'assets', 'app.js'), join(root, 'elsewhere.js'));
    expect(await openStatic(again)).toBeNull();
  });
});

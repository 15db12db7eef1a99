import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { hugeScreenGif, objectStreamBomb } from '../../../test-support/attachments/hostile-files';
import { CheckReply } from './check-messages';

/**
 * The check worker as the app ships it: electron-vite must emit it as a chunk of its own under
 * out/main (the `?nodeWorker` import in checks-in-worker.ts), and the built loader must start it
 * and get answers, with the packages it needs (pdf-lib, sharp, zod) found from there. Needs
 * `npx electron-vite build` first (npm test builds before it runs the tests).
 */
const chunks = resolve(fileURLToPath(new URL('../../../', import.meta.url)), 'out/main/chunks');

function built(prefix: string): string {
  if (!existsSync(chunks)) throw new Error(`${chunks} is missing: build first with "npx electron-vite build" (npm test builds before it runs the tests).`);
  const found = readdirSync(chunks).filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.js'));
  expect(found, `one ${prefix} chunk in out/main/chunks`).toHaveLength(1);
  return resolve(chunks, found[0]!);
}

async function ask(createWorker: (options: WorkerOptions) => Worker, request: { kind: 'file' | 'image'; name: string; bytes: Uint8Array }): Promise<CheckReply> {
  const worker = createWorker({ resourceLimits: { maxOldGenerationSizeMb: 512 } });
  try {
    const reply = new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    worker.postMessage(request);
    return CheckReply.parse(await reply);
  } finally {
    await worker.terminate();
  }
}

describe('the built check worker', () => {
  it('is its own chunk, started by the built loader, and refuses bombs by name', { timeout: 60_000 }, async () => {
    const worker = built('check-worker');
    const loader = built('checks-in-worker');
    expect(readFileSync(loader, 'utf8')).toContain(`new URL("./${worker.split('/').pop()}", import.meta.url)`);
    const { default: createWorker } = (await import(/* @vite-ignore */ pathToFileURL(loader).href)) as { default: (options: WorkerOptions) => Worker };

    const bomb = await objectStreamBomb(256 * 1024 * 1024);
    expect(await ask(createWorker, { kind: 'file', name: 'bomb.pdf', bytes: bomb })).toEqual({
      outcome: 'refused',
      message: '"bomb.pdf" cannot be opened safely: its compressed streams unpack to more than 32 MB.',
    });
    expect(await ask(createWorker, { kind: 'image', name: 'screen.gif', bytes: hugeScreenGif(16000, 16000) })).toMatchObject({ outcome: 'refused', message: expect.stringMatching(/^"screen.gif" is 16000×16000 pixels/) });
    const text = await ask(createWorker, { kind: 'file', name: 'notes.md', bytes: Buffer.from('# Notes\n') });
    expect(text).toMatchObject({ outcome: 'prepared', meta: { kind: 'text', mediaType: 'text/markdown' } });
  });
});

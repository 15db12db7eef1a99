import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { danglingEncryptPdf, hugeScreenGif, manyObjectsPdf, objectStreamBomb, xrefStreamBomb } from '../../../test-support/attachments/hostile-files';
import { AttachmentService } from './attachment-service';

// Files built to freeze the app or take its memory, attached the way the app attaches them
// (AttachmentService.add, as finishUpload does): each is refused by name and reason, quickly,
// while main's event loop keeps turning, and the memory comes back. Issue 21, items 2 and 3.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;

async function settledRss(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 100));
  }
  return process.memoryUsage().rss;
}

/** CPU time of main's thread alone (Linux: its /proc task's utime + stime, in 10 ms ticks). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Runs `work` and measures it in CPU time, which a loaded machine does not stretch: `mainCpuMs`,
 * what main's thread spent (all of it together, so no stall of main's own making is longer) and
 * `cpuMs`, what the whole process spent, the worker included. Wall time is stretched by the
 * wait for a CPU (tens of ms on 2 shared cores even when main does nothing): `stallMs`, the
 * longest a timer on main waited past its time, and `tookMs` are held only to "never frozen".
 */
async function watched<T>(work: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; mainCpuMs: number; cpuMs: number; stallMs: number; tookMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const mainCpu = mainThreadCpuMs();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const [outcome] = await Promise.allSettled([work()]);
  const tookMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const mainCpuMs = mainThreadCpuMs() - mainCpu;
  delay.disable();
  // The histogram counts the timer's resolution into every sample: a stall is what passes it.
  return { outcome: outcome!, mainCpuMs, cpuMs: (user + system) / 1000, stallMs: delay.max / 1e6 - 5, tookMs };
}

function refusal(outcome: PromiseSettledResult<unknown>): string {
  expect(outcome.status).toBe('rejected');
  const reason = (outcome as PromiseRejectedResult).reason as Error;
  expect(reason.name).toBe('AttachmentRefusal');
  return reason.message;
}

let dataDir: string;
let service: AttachmentService;
let bomb: Buffer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waypoint-bombs-'));
  service = new AttachmentService(dataDir);
  bomb = await objectStreamBomb(1024 * MB);
  // Warm: the first check loads the checking code; the test measures the bomb, not that.
  const page = await PDFDocument.create();
  page.addPage([100, 100]);
  await service.add('warm.pdf', Buffer.from(await page.save()));
  await service.add('warm.png', await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } }).png().toBuffer());
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const storedFiles = () => readdirSync(join(dataDir, 'attachments')).length;

describe('a PDF whose object stream unpacks to 1 GB', () => {
  it('is about 1 MB, and is refused by name and reason in under 2 s of CPU, with main’s thread nearly idle and no memory kept', { timeout: 60_000 }, async () => {
    expect(bomb.length).toBeGreaterThan(0.9 * MB);
    expect(bomb.length).toBeLessThan(1.2 * MB);
    const stored = storedFiles();
    const before = await settledRss();
    const { outcome, mainCpuMs, cpuMs, stallMs, tookMs } = await watched(() => service.add('bomb.pdf', bomb));
    console.info(`bomb.pdf refused: ${tookMs.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU, of it main ${mainCpuMs} ms; longest stall ${stallMs.toFixed(0)} ms`);
    expect(refusal(outcome)).toBe('"bomb.pdf" cannot be opened safely: its compressed streams unpack to more than 32 MB.');
    // The old check spent 6–11 s of main's CPU on it, and held main that long.
    expect(cpuMs).toBeLessThan(2000);
    expect(mainCpuMs).toBeLessThan(50);
    expect(tookMs).toBeLessThan(10_000);
    expect(stallMs).toBeLessThan(500);
    const kept = (await settledRss()) - before;
    console.info(`bomb.pdf: RSS after the refusal and a GC is ${(kept / MB).toFixed(1)} MB over the baseline`);
    expect(kept).toBeLessThan(100 * MB);
    expect(storedFiles()).toBe(stored);
  });

  it('the same through a cross-reference stream', { timeout: 60_000 }, async () => {
    const { outcome, tookMs } = await watched(async () => service.add('xref.pdf', await xrefStreamBomb(512 * MB)));
    expect(refusal(outcome)).toBe('"xref.pdf" cannot be opened safely: its compressed streams unpack to more than 32 MB.');
    expect(tookMs).toBeLessThan(30_000); // building the file is part of it here
  });
});

describe('a PDF that is not what it says', () => {
  it('a trailer that names encryption at an object that does not exist is refused as encrypted', async () => {
    expect(refusal((await Promise.allSettled([service.add('locked.pdf', danglingEncryptPdf())]))[0]!)).toMatch(/^"locked\.pdf" is encrypted/);
  });
});

describe('a GIF whose 35 bytes declare a 16000×16000 screen', () => {
  it('is refused by its declared size before any pixel is decoded: memory stays low', { timeout: 30_000 }, async () => {
    const gif = hugeScreenGif(16000, 16000);
    expect(gif.length).toBeLessThan(100);
    const before = await settledRss();
    const { outcome, mainCpuMs, cpuMs, stallMs, tookMs } = await watched(() => service.add('screen.gif', gif));
    console.info(`screen.gif refused: ${tookMs.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU, of it main ${mainCpuMs} ms; longest stall ${stallMs.toFixed(0)} ms`);
    expect(refusal(outcome)).toBe('"screen.gif" is 16000×16000 pixels; Waypoint opens images of at most 64 megapixels (such as 8000×8000).');
    expect(cpuMs).toBeLessThan(2000);
    expect(mainCpuMs).toBeLessThan(50);
    expect(tookMs).toBeLessThan(10_000);
    expect(stallMs).toBeLessThan(500);
    const kept = (await settledRss()) - before;
    console.info(`screen.gif: RSS after the refusal and a GC is ${(kept / MB).toFixed(1)} MB over the baseline`);
    expect(kept).toBeLessThan(100 * MB);
  });

  it('a GIF of more frames than Waypoint reads is refused before decoding', async () => {
    const { outcome } = await watched(() => service.add('flipbook.gif', hugeScreenGif(10, 10, 1001)));
    expect(refusal(outcome)).toBe('"flipbook.gif" has 1001 frames; Waypoint opens animations of at most 1000.');
  });

  it('an image a tool returns is checked the same way', async () => {
    const { problems } = await service.fromTool('shot', [{ mediaType: 'image/gif', data: hugeScreenGif(16000, 16000).toString('base64') }]);
    expect(problems).toEqual(['"shot-image-1.gif" is 16000×16000 pixels; Waypoint opens images of at most 64 megapixels (such as 8000×8000).']);
  });
});

describe('the check’s own limits', () => {
  it('files attached together wait their turn and each comes back as itself, a refusal among them', { timeout: 60_000 }, async () => {
    const files = await Promise.all(
      ['#112233', '#445566', '#778899', '#aabbcc'].map((colour) => sharp({ create: { width: 30, height: 20, channels: 3, background: colour } }).png().toBuffer()),
    );
    const results = await Promise.allSettled([...files.map((png, i) => service.add(`shot-${i}.png`, png)), service.add('screen.gif', hugeScreenGif(16000, 16000)), service.add('notes.md', Buffer.from('# Notes\n'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const ids = results.slice(0, 4).map((r) => (r as PromiseFulfilledResult<{ id: string; width?: number }>).value);
    expect(new Set(ids.map((a) => a.id)).size).toBe(4);
    expect(ids.every((a) => a.width === 30)).toBe(true);
    expect((results[5] as PromiseFulfilledResult<{ kind: string }>).value.kind).toBe('text');
  });

  it('a check that runs past its time is stopped and refused by name, and main keeps turning', { timeout: 60_000 }, async () => {
    const slow = new AttachmentService(dataDir, { checkTimeMs: 150 });
    const file = manyObjectsPdf(200_000);
    const { outcome, mainCpuMs, stallMs } = await watched(() => slow.add('slow.pdf', file));
    expect(refusal(outcome)).toBe('"slow.pdf" took longer than 0.15 s to check, so Waypoint stopped reading it.');
    expect(mainCpuMs).toBeLessThan(50);
    expect(stallMs).toBeLessThan(500);
  });

  it('a check that needs more memory than allowed is stopped and refused by name', { timeout: 150_000 }, async () => {
    // A time limit no loaded machine reaches first: this test is about the heap.
    const small = new AttachmentService(dataDir, { checkHeapMb: 16, checkTimeMs: 120_000 });
    const { outcome } = await watched(() => small.add('big.pdf', manyObjectsPdf(200_000)));
    expect(refusal(outcome)).toBe('"big.pdf" needs more than 16 MB of memory to check, so Waypoint stopped reading it.');
  });
});

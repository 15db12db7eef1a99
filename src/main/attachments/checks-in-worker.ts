import { Worker, type WorkerOptions } from 'node:worker_threads';
import { AttachmentRefusal } from './attachment-refusal';
import { CheckReply, type CheckRequest } from './check-messages';
import { sniff, type PreparedFile } from './prepare-file';

/**
 * Every attached file (and every image a tool returns) is checked in a worker thread of its own
 * (check-worker.ts), never on main's event loop, which serves every chat and tab: a PDF parse
 * or an image decode that takes seconds no longer freezes them. The worker has a time limit
 * (then it is terminated) and a V8 heap limit; neither bounds native memory (libvips, the
 * buffers of unpacked streams), which the checks themselves bound before they unpack or decode
 * anything (prepare-image.ts, pdf-load-hooks.ts). docs/security.md, "Attachment checks".
 */

export interface CheckLimits {
  /** How long one file's check may take before its worker is terminated and the file refused. */
  timeMs: number;
  /** The worker's V8 heap (pdf-lib's objects); past it, the worker stops and the file is refused. */
  heapMb: number;
}

/**
 * Generous for honest files on a loaded machine (an 18 MB PDF parses in about a second, a
 * 64-megapixel image scales in a few); a hostile one is refused by the checks long before.
 */
export const CHECK_LIMITS: CheckLimits = { timeMs: 15_000, heapMb: 512 };
type Request = Omit<CheckRequest, 'bytes'> & { bytes: Buffer };

/** Checks at once; more wait their turn, so 20 files attached together do not take 20 threads' memory. */
const AT_ONCE = 2;

export class AttachmentChecks {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** sharp, loaded once in main before any worker uses it (see pinSharp). */
  private sharpPinned: Promise<unknown> | null = null;

  constructor(private readonly limits: CheckLimits = CHECK_LIMITS) {}

  /** Any attached file, judged from its bytes: the prepared file, or an AttachmentRefusal. */
  file(name: string, bytes: Buffer): Promise<PreparedFile> {
    return this.check({ kind: 'file', name, bytes }, sniff(bytes) === 'image');
  }

  /** An image a tool returned. */
  image(name: string, bytes: Buffer): Promise<PreparedFile> {
    return this.check({ kind: 'image', name, bytes }, true);
  }

  private async check(request: Request, image: boolean): Promise<PreparedFile> {
    // sharp's docs: load it on the main thread before a worker does, so its native libraries
    // stay loaded when a worker that used them ends (else some platforms unload them under
    // the next one). Main uses it for previews anyway.
    if (image) await (this.sharpPinned ??= import('sharp'));
    await this.turn();
    try {
      return await this.inWorker(request);
    } finally {
      this.release();
    }
  }

  private async turn(): Promise<void> {
    if (this.running < AT_ONCE) this.running++;
    // The slot is handed over as it is (release does not count it free), so no newcomer takes it first.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private async inWorker(request: Request): Promise<PreparedFile> {
    const { name, bytes } = request;
    const { timeMs, heapMb } = this.limits;
    const worker = await startCheckWorker({
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.max(4, Math.min(32, heapMb / 8)), stackSizeMb: 4 },
      // pdf-lib logs every damaged object it skips: a hostile file's noise stays out of main's output.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    return new Promise<PreparedFile>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
        // Its work is done or abandoned: ending the thread frees what it allocated.
        void worker.terminate();
      };
      const timer = setTimeout(
        () => settle(() => reject(new AttachmentRefusal(`"${name}" took longer than ${timeMs / 1000} s to check, so Waypoint stopped reading it.`))),
        timeMs,
      );
      worker.once('message', (raw: unknown) => settle(() => answer(raw, request, resolve, reject)));
      worker.once('error', (error: Error & { code?: string }) =>
        settle(() =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new AttachmentRefusal(`"${name}" needs more than ${heapMb} MB of memory to check, so Waypoint stopped reading it.`)
              : new Error(`Checking "${name}" failed: ${error.message}`),
          ),
        ),
      );
      worker.once('exit', (code) => settle(() => reject(new Error(`Checking "${name}" ended without an answer (the worker exited with code ${code}).`))));
      // A copy travels (structured clone): main keeps its own bytes for a file that goes as it came.
      worker.postMessage({ kind: request.kind, name, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) } satisfies CheckRequest);
    });
  }
}

function answer(raw: unknown, request: { name: string; bytes: Buffer }, resolve: (file: PreparedFile) => void, reject: (error: Error) => void): void {
  const reply = CheckReply.safeParse(raw);
  if (!reply.success) return reject(new Error(`Checking "${request.name}" gave an answer main cannot read.`));
  const value = reply.data;
  if (value.outcome === 'refused') return reject(new AttachmentRefusal(value.message));
  if (value.outcome === 'failed') return reject(new Error(value.message));
  const bytes = value.bytes === null ? request.bytes : Buffer.from(value.bytes.buffer, value.bytes.byteOffset, value.bytes.length);
  resolve({ bytes, meta: value.meta });
}

/**
 * The worker as built (electron-vite emits check-worker as a chunk of its own next to main's
 * and resolves its path: the `?nodeWorker` import), or from the TypeScript sources under vitest
 * and tsx: then a small bootstrap registers tsx in the worker before it imports check-worker.ts.
 */
async function startCheckWorker(options: WorkerOptions): Promise<Worker> {
  if (import.meta.url.endsWith('.ts')) {
    const source = JSON.stringify(new URL('./check-worker.ts', import.meta.url).href);
    return new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); });`, { ...options, eval: true });
  }
  const { default: createWorker } = await import('./check-worker?nodeWorker');
  return createWorker(options);
}

import { closeSync, fsync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LogEntry, LogRecordType } from './log-records';

/**
 * Durability policy (measured by bench/persistence.ts):
 * - Every record is written with a synchronous write(2) before the next event is handled, so a
 *   killed process (SIGKILL, crash) loses at most the event it was handling: the kernel holds
 *   every completed write. The append costs a few microseconds.
 * - fsync (power loss) is asynchronous and coalesced, asked for at turn boundaries and
 *   questions: run start/end, API history changes, plan changes, pending prompts, the user's
 *   message. Streamed text and tool-card updates ride along with the next one. An fsync per
 *   record would put a disk flush (ms) in the stream's path for no user-visible gain.
 */
const DURABLE: ReadonlySet<LogRecordType> = new Set(['created', 'run', 'history', 'plan', 'prompt', 'usage']);

export class SessionLogWriter {
  private fd: number | null;
  private seq: number;
  private syncing = false;
  private syncAgain = false;
  private idle: Array<() => void> = [];

  /** `nextSeq` continues the numbering of an existing log (last seq + 1). */
  constructor(
    readonly path: string,
    nextSeq = 0,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a', 0o600);
    this.seq = nextSeq;
  }

  get nextSeq(): number {
    return this.seq;
  }

  append(entry: LogEntry, options: { durable?: boolean } = {}): void {
    if (this.fd === null) return;
    const line = `${JSON.stringify({ seq: this.seq++, t: new Date().toISOString(), ...entry })}\n`;
    writeSync(this.fd, line);
    if (options.durable ?? DURABLE.has(entry.type)) this.sync();
  }

  /** Resolves once every record appended so far has been fsynced. */
  flushed(): Promise<void> {
    if (!this.syncing) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    // An fsync still running holds the fd; close after it.
    if (this.syncing) this.idle.push(() => closeSync(fd));
    else closeSync(fd);
  }

  private sync(): void {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    const fd = this.fd;
    if (fd === null) return;
    this.syncing = true;
    fsync(fd, (error) => {
      if (error) console.warn(`[waypoint] fsync of ${this.path} failed: ${error.message}`);
      this.syncing = false;
      if (this.syncAgain && this.fd !== null) {
        this.syncAgain = false;
        this.sync();
        return;
      }
      for (const done of this.idle.splice(0)) done();
    });
  }
}

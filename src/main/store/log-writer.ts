import { dirname } from 'node:path';
import { nodeLogFileSystem, type LogFileSystem } from './log-file-system';
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
 *
 * Write failures (ENOSPC, EMFILE, EACCES, EIO…) never throw out of append and never drop a
 * record: records wait in order in memory, a short write continues where it stopped (so no line
 * is torn in the middle of the log), the owner is told once (onFault) and again when all is on
 * disk (onRecovered), and the writer retries on a timer until then.
 *
 * The writer owns its log: before each write it checks that the file is still what it wrote (its
 * size is where its last line ended), and before the first write of each turn of the event loop
 * that its path still names the open file. A log changed
 * behind its back (edited and saved by hand or by a tool, truncated, replaced, removed) is never
 * written again: appending would put its lines after bytes it does not know, and every position
 * it hands out (paged-items.ts reads items back from them) would be wrong. The owner is told
 * once (onForeignChange) and the chat goes read-only; what is in memory stays as it was.
 */
const DURABLE: ReadonlySet<LogRecordType> = new Set(['created', 'run', 'history', 'plan', 'prompt', 'usage', 'rewind', 'version', 'subagent_waiting']);

export interface LogWriterOptions {
  fs?: LogFileSystem;
  /** The first failure after a good state (the writer keeps retrying). */
  onFault?(error: NodeJS.ErrnoException): void;
  /** Everything that was waiting is written again. */
  onRecovered?(): void;
  /** First retry after a failure; doubles up to 8x (default 500 ms). */
  retryMs?: number;
  /** How long the log is when this writer takes it over (what its owner read); checked at the first open. */
  startsAt?: number;
  /** The log changed behind the writer's back (in words); nothing more is written. */
  onForeignChange?(what: string): void;
}

/** Told where a line landed once all of it is in the file: bytes [start, end), its newline not included. */
export type LineWritten = (start: number, end: number) => void;

interface PendingLine {
  bytes: Buffer;
  written?: LineWritten;
}

export class ChatLogWriter {
  private fd: number | null = null;
  private seq: number;
  private closed = false;
  private syncing = false;
  private syncAgain = false;
  private wantSync = false;
  private idle: Array<() => void> = [];
  /** Lines not yet (fully) written, oldest first; `headOffset` bytes of the first are already on disk. */
  private readonly backlog: PendingLine[] = [];
  private headOffset = 0;
  /** Where the first line of the backlog starts in the file (known once it is open). */
  private position = 0;
  private fault: NodeJS.ErrnoException | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay: number;
  private readonly fs: LogFileSystem;
  /** Set once the log changed behind this writer's back: it writes nothing more. */
  private foreign: string | null = null;
  /** The path was found to name the open file in this turn of the event loop (cleared at its end). */
  private sameFileThisTurn = false;

  /** `nextSeq` continues the numbering of an existing log (last seq + 1). */
  constructor(
    readonly path: string,
    nextSeq = 0,
    private readonly options: LogWriterOptions = {},
  ) {
    this.seq = nextSeq;
    this.fs = options.fs ?? nodeLogFileSystem;
    this.retryDelay = options.retryMs ?? 500;
    // The file is opened by the first append: a failure then reaches a listener, and a chat that
    // is only read holds no descriptor.
  }

  get nextSeq(): number {
    return this.seq;
  }

  /** Where this writer's last wholly written line ends in the file; null before the file is opened. */
  get endOffset(): number | null {
    return this.fd === null ? null : this.position;
  }

  /** True while records wait in memory because the last write failed. */
  get failing(): boolean {
    return this.fault !== null;
  }

  /**
   * `written` is called once the line is wholly in the file (at once, or after a failed write
   * is retried), with where it lies: the line can be read back from there (paged-items.ts).
   */
  append(entry: LogEntry, options: { durable?: boolean; written?: LineWritten } = {}): void {
    if (this.closed || this.foreign) return;
    const bytes = Buffer.from(`${JSON.stringify({ seq: this.seq++, t: new Date().toISOString(), ...entry })}\n`, 'utf8');
    this.backlog.push(options.written ? { bytes, written: options.written } : { bytes });
    if (options.durable ?? DURABLE.has(entry.type)) this.wantSync = true;
    // While failing, records only queue: the retry timer writes them, not every new event.
    if (!this.fault) this.drain();
  }

  /** Resolves once every record written so far has been fsynced (records still waiting after a failure are not). */
  flushed(): Promise<void> {
    if (!this.syncing) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  close(): void {
    if (this.closed) return;
    if (this.backlog.length) this.drain(); // one last try
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.backlog.length) console.warn(`[waypoint] ${this.backlog.length} record(s) of ${this.path} could not be written: ${this.fault?.message ?? 'unknown error'}`);
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return;
    // An fsync still running holds the fd; close after it.
    if (this.syncing) this.idle.push(() => this.closeQuietly(fd));
    else this.closeQuietly(fd);
  }

  /** Writes what waits, in order; on a failure keeps it and schedules a retry. Never throws. */
  private drain(): void {
    const landed: Array<{ written: LineWritten; start: number; end: number }> = [];
    try {
      if (this.fd === null) {
        this.fs.mkdir(dirname(this.path));
        const fd = this.fs.open(this.path);
        this.fd = fd;
        this.position = this.fs.size(fd);
        const expected = this.options.startsAt;
        if (expected !== undefined && this.position !== expected) return this.changedBehindItsBack(`it is ${this.position} bytes long where ${expected} were read`);
      } else if (this.backlog.length) {
        const size = this.fs.size(this.fd);
        const expected = this.position + this.headOffset;
        if (size !== expected) return this.changedBehindItsBack(`it is ${size} bytes long where Waypoint had written ${expected}`);
        if (!this.sameFileThisTurn) {
          if (!this.fs.sameFile(this.fd, this.path)) return this.changedBehindItsBack('another file has its name now (it was replaced, moved or removed)');
          // Two stats per record were a sixth of a planning call's log cost: the records one turn
          // writes share this look (the size, a cheaper check, is still read before every write).
          this.sameFileThisTurn = true;
          process.nextTick(() => (this.sameFileThisTurn = false));
        }
      }
      while (this.backlog.length) {
        const head = this.backlog[0]!;
        this.headOffset += this.fs.write(this.fd, head.bytes, this.headOffset, head.bytes.length - this.headOffset);
        if (this.headOffset >= head.bytes.length) {
          this.backlog.shift();
          this.headOffset = 0;
          const start = this.position;
          this.position += head.bytes.length;
          if (head.written) landed.push({ written: head.written, start, end: this.position - 1 });
        }
      }
    } catch (error) {
      this.failed(error as NodeJS.ErrnoException);
      return;
    } finally {
      // What is in the file is said even when a later line failed (outside the try: a listener's
      // throw is not a disk fault).
      for (const { written, start, end } of landed) written(start, end);
    }
    if (this.fault) {
      this.fault = null;
      this.retryDelay = this.options.retryMs ?? 500;
      this.options.onRecovered?.();
    }
    if (this.wantSync) {
      this.wantSync = false;
      this.sync();
    }
  }

  /** Stops for good: nothing waiting is written, nothing more is taken; the owner is told once. */
  private changedBehindItsBack(what: string): void {
    this.foreign = what;
    this.backlog.length = 0;
    this.headOffset = 0;
    this.fault = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.options.onForeignChange?.(what);
  }

  private failed(error: NodeJS.ErrnoException): void {
    const first = this.fault === null;
    this.fault = error;
    if (first) this.options.onFault?.(error);
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.closed) this.drain();
    }, this.retryDelay);
    this.retryTimer.unref?.();
    this.retryDelay = Math.min(this.retryDelay * 2, (this.options.retryMs ?? 500) * 8);
  }

  private closeQuietly(fd: number): void {
    try {
      this.fs.close(fd);
    } catch {
      // Nothing more to do with it.
    }
  }

  private sync(): void {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    const fd = this.fd;
    if (fd === null) return;
    this.syncing = true;
    this.fs.fsync(fd, (error) => {
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

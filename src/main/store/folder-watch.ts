import { watch, type FSWatcher } from 'node:fs';
import type { Disposable } from '../common/emitter';

/**
 * Calls `tick` soon after something changes in the watched paths, and every `pollMs` whatever
 * happens: file watching is fast where it works and silently absent where it does not (network
 * folders, some containers), so the poll is the guarantee and the watch the speed-up.
 */
export class FolderWatch implements Disposable {
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly watchers = new Map<string, FSWatcher>();
  private soon: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(
    private readonly tick: () => void,
    pollMs: number,
    private readonly debounceMs = 15,
  ) {
    this.timer = setInterval(() => this.run(), pollMs);
    this.timer.unref?.();
  }

  /** Starts watching a path (idempotent); a path that cannot be watched is left to the poll. */
  add(path: string): void {
    if (this.disposed || this.watchers.has(path)) return;
    try {
      const watcher = watch(path, { persistent: false }, () => this.schedule());
      watcher.on('error', () => this.remove(path));
      this.watchers.set(path, watcher);
    } catch {
      // Not watchable here: the poll covers it.
    }
  }

  remove(path: string): void {
    this.watchers.get(path)?.close();
    this.watchers.delete(path);
  }

  has(path: string): boolean {
    return this.watchers.has(path);
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private schedule(): void {
    if (this.soon || this.disposed) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      this.run();
    }, this.debounceMs);
    this.soon.unref?.();
  }

  private run(): void {
    if (this.disposed) return;
    try {
      this.tick();
    } catch (error) {
      console.warn(`[waypoint] following the data folder failed: ${(error as Error).message}`);
    }
  }
}

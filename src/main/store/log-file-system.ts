import { closeSync, fstatSync, fsync, mkdirSync, statSync, writeSync } from 'node:fs';
import { openRegularForAppending } from '../common/regular-file';

/**
 * The file-system calls a chat's log writer makes, as a port: the app uses the real ones; tests
 * put a full disk (ENOSPC), a descriptor limit (EMFILE) or a read-only folder (EACCES) in their
 * place to prove a failed write loses nothing and crashes nothing.
 */
export interface LogFileSystem {
  mkdir(dir: string): void;
  /** Opens for appending (created 0600 when missing); returns the descriptor. Never blocks: a FIFO is refused (ENOTREG). */
  open(path: string): number;
  /** The file's size now: where the next append lands. */
  size(fd: number): number;
  /** Whether `path` still names the open file (not replaced by a rename, not removed). */
  sameFile(fd: number, path: string): boolean;
  /** Writes `length` bytes of `data` from `offset`; returns how many were written (may be fewer). */
  write(fd: number, data: Buffer, offset: number, length: number): number;
  fsync(fd: number, done: (error: Error | null) => void): void;
  close(fd: number): void;
}

export const nodeLogFileSystem: LogFileSystem = {
  mkdir: (dir) => void mkdirSync(dir, { recursive: true }),
  open: (path) => openRegularForAppending(path, 0o600),
  size: (fd) => fstatSync(fd).size,
  sameFile(fd, path) {
    try {
      const open = fstatSync(fd);
      const named = statSync(path);
      return open.dev === named.dev && open.ino === named.ino;
    } catch {
      return false;
    }
  },
  write: (fd, data, offset, length) => writeSync(fd, data, offset, length),
  fsync: (fd, done) => fsync(fd, done),
  close: (fd) => closeSync(fd),
};

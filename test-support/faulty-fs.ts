import { nodeLogFileSystem, type LogFileSystem } from '../src/main/store/log-file-system';

/**
 * A LogFileSystem over the real one with switchable faults, as the disk would raise them:
 * `full` makes writes fail with ENOSPC after writing what fits (a short write first), `noFiles`
 * makes opens fail with EMFILE, `denied` makes opens and writes fail with EACCES.
 */
export interface FaultyFs extends LogFileSystem {
  full: boolean;
  noFiles: boolean;
  denied: boolean;
  /** Bytes a write may still put down before ENOSPC (the rest of the disk). */
  roomBytes: number;
  faults: number;
}

const errno = (code: string, syscall: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: simulated, ${syscall}`), { code, syscall });

export function faultyFs(real: LogFileSystem = nodeLogFileSystem): FaultyFs {
  const fs: FaultyFs = {
    full: false,
    noFiles: false,
    denied: false,
    roomBytes: 0,
    faults: 0,
    mkdir: (dir) => real.mkdir(dir),
    open(path) {
      if (fs.noFiles || fs.denied) {
        fs.faults++;
        throw errno(fs.noFiles ? 'EMFILE' : 'EACCES', 'open');
      }
      return real.open(path);
    },
    size: (fd) => real.size(fd),
    sameFile: (fd, path) => real.sameFile(fd, path),
    write(fd, data, offset, length) {
      if (fs.denied) {
        fs.faults++;
        throw errno('EACCES', 'write');
      }
      if (fs.full) {
        if (fs.roomBytes > 0) {
          const n = real.write(fd, data, offset, Math.min(length, fs.roomBytes));
          fs.roomBytes -= n;
          return n;
        }
        fs.faults++;
        throw errno('ENOSPC', 'write');
      }
      return real.write(fd, data, offset, length);
    },
    fsync: (fd, done) => real.fsync(fd, done),
    close: (fd) => real.close(fd),
  };
  return fs;
}

import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ToolError } from '../tool';
import { canonicalRoot, confine, isInside } from './confine';
import { formatCount } from './tool-input';

/**
 * Confinement by file identity, not by path strings. confine() checks the path Claude gave; a
 * path can change between that check and the open (a folder swapped for a symlink, a rename), and
 * a hard link inside the workspace can name a file outside it. So every file is opened first and
 * the OPENED file is checked:
 * - the descriptor's real location (Linux: /proc/self/fd/N; elsewhere: device and inode of the
 *   descriptor against the path resolved again) must be inside the workspace;
 * - the last path component is opened with O_NOFOLLOW (a symlink swapped in is refused);
 * - only regular files are read or written: never a FIFO, socket or device (O_NONBLOCK makes
 *   even the open of a FIFO return at once, so nothing here can block the main thread);
 * - a file with more than one hard link is refused: its other names may be outside.
 */

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;

export interface OpenedFile {
  fd: number;
  /** The canonical path at the time of the check (for messages and checkpoints). */
  abs: string;
  /** The path relative to the workspace root, as given (normalised). */
  rel: string;
  stat: fs.Stats;
  /** True when this open created the file. */
  created: boolean;
}

/** Refusals are ToolErrors; other fs errors (ENOENT, EACCES, …) are thrown for the caller's fsFailure. */
export type OpenResult = { ok: true; file: OpenedFile } | { ok: false; error: ToolError };

/** 'read' and 'update' need an existing file; 'create' makes it when missing (never truncates). */
export type OpenMode = 'read' | 'update' | 'create';

const HOW = 'Paths are relative to the workspace root, e.g. src/app.ts.';
const hasProcFd = fs.existsSync('/proc/self/fd');

/** Where an open descriptor really is (the kernel's own path for it), or null where that is not known. */
export function descriptorPath(fd: number): string | null {
  if (!hasProcFd) return null;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** Is the open descriptor a file inside `realRoot`? Checked on the descriptor, so a later swap changes nothing. */
export function descriptorInside(fd: number, realRoot: string, expectedAbs: string): boolean {
  const real = descriptorPath(fd);
  if (real !== null) return isInside(realRoot, real);
  // No /proc: the descriptor must be the very file the path resolves to now, and that inside.
  try {
    const again = fs.realpathSync.native(expectedAbs);
    const opened = fs.fstatSync(fd);
    const named = fs.statSync(again);
    return isInside(realRoot, again) && opened.dev === named.dev && opened.ino === named.ino;
  } catch {
    return false;
  }
}

const fail = (kind: ToolError['kind'], message: string): OpenResult => ({ ok: false, error: { kind, message } });

function flagsFor(mode: OpenMode, exclusive: boolean): number {
  const base = O_NOFOLLOW | O_NONBLOCK;
  if (mode === 'read') return base | O_RDONLY;
  if (mode === 'update') return base | O_RDWR;
  return base | O_WRONLY | O_CREAT | (exclusive ? O_EXCL : 0);
}

function errCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/**
 * Opens `given` inside the workspace and verifies what was opened. Synchronous on purpose (the
 * approval dry runs are synchronous), and never blocking: the open is non-blocking and every
 * check is a stat. The caller closes `file.fd` (closeQuietly).
 */
export function openInside(root: string, given: string, mode: OpenMode): OpenResult {
  const confined = confine(root, given);
  if (!confined.ok) return confined;
  const rootResult = canonicalRoot(root);
  if (!rootResult.ok) return rootResult;
  const { abs, rel } = confined.path;
  let fd: number;
  let created = false;
  try {
    if (mode === 'create') {
      try {
        fd = fs.openSync(abs, flagsFor(mode, true), 0o666);
        created = true;
      } catch (error) {
        if (errCode(error) !== 'EEXIST') throw error;
        fd = fs.openSync(abs, flagsFor(mode, false));
      }
    } else {
      fd = fs.openSync(abs, flagsFor(mode, false));
    }
  } catch (error) {
    const code = errCode(error);
    // O_NOFOLLOW on a symlink: the last component was swapped for a link after the check.
    if (code === 'ELOOP') return fail('permission', `"${given}" changed into a symlink while it was being opened; refused. ${HOW}`);
    // A FIFO opened for writing with no reader.
    if (code === 'ENXIO') return fail('invalid_parameter', `${rel} is not a regular file (a pipe, socket or device); Waypoint only reads and writes regular files.`);
    throw error; // ENOENT, EACCES, …: the caller's fsFailure says it in words
  }
  const refuse = (result: OpenResult): OpenResult => {
    // A file this open created is removed again, by the name the kernel gives it (it may be
    // outside) — and only while that name is still this very file.
    if (created) {
      try {
        const where = descriptorPath(fd) ?? abs;
        const named = fs.lstatSync(where);
        const mine = fs.fstatSync(fd);
        if (named.dev === mine.dev && named.ino === mine.ino) fs.rmSync(where, { force: true });
      } catch {
        // Already gone.
      }
    }
    closeQuietly(fd);
    return result;
  };
  // The file opened must be inside: a folder on its way may have been swapped for a link after the check.
  if (!descriptorInside(fd, rootResult.root, abs)) return refuse(fail('permission', `"${given}" is outside the workspace (a folder on its path changed while it was being opened). ${HOW}`));
  const stat = fs.fstatSync(fd);
  if (stat.isDirectory()) return refuse(fail('invalid_parameter', `${rel} is a folder, not a file. Use list_directory for folders.`));
  if (!stat.isFile()) return refuse(fail('invalid_parameter', `${rel} is not a regular file (a pipe, socket or device); Waypoint only reads and writes regular files.`));
  if (stat.nlink > 1) {
    return refuse(fail('permission', `${rel} has ${formatCount(stat.nlink)} hard links: its other names may be outside the workspace, so Waypoint does not ${mode === 'read' ? 'read' : 'change'} it.`));
  }
  return { ok: true, file: { fd, abs, rel, stat, created } };
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed.
  }
}

const readAsync = promisify(fs.read);
const writeAsync = promisify(fs.write);
const ftruncateAsync = promisify(fs.ftruncate);

/** Reads the whole (regular, size-checked) file from its descriptor, off the main thread. */
export async function readAll(file: OpenedFile): Promise<Buffer> {
  const buffer = Buffer.alloc(file.stat.size);
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await readAsync(file.fd, buffer, offset, buffer.length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return buffer.subarray(0, offset);
}

/** The same, synchronously: for the approval dry runs (a regular file, size already capped by the caller). */
export function readAllSync(file: OpenedFile): Buffer {
  const buffer = Buffer.alloc(file.stat.size);
  let offset = 0;
  while (offset < buffer.length) {
    const n = fs.readSync(file.fd, buffer, offset, buffer.length - offset, offset);
    if (n === 0) break;
    offset += n;
  }
  return buffer.subarray(0, offset);
}

/** Replaces the file's whole content through its descriptor. */
export async function replaceContent(file: OpenedFile, content: string): Promise<void> {
  const data = Buffer.from(content, 'utf8');
  await ftruncateAsync(file.fd, 0);
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await writeAsync(file.fd, data, offset, data.length - offset, offset);
    offset += bytesWritten;
  }
}

/**
 * Creates the missing folders of `abs`'s parent inside the workspace, one at a time, each made
 * in the folder checked a step before: on Linux through that folder's descriptor
 * (/proc/self/fd/N/name, as mkdirat would), so a folder on the way swapped for a link to outside
 * cannot make the next one land outside. Each one is opened without following a link and checked
 * to be inside; where there is no /proc, one made outside after all is removed again.
 */
export function makeParentFolders(realRoot: string, abs: string): { ok: true } | { ok: false; error: ToolError } {
  const parent = path.dirname(abs);
  const rel = path.relative(realRoot, parent);
  if (rel === '') return { ok: true };
  const shown = path.relative(realRoot, abs);
  const refused = (message: string) => ({ ok: false as const, error: { kind: 'permission' as const, message } });
  let dirFd = fs.openSync(realRoot, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
  let current = realRoot;
  try {
    for (const part of rel.split(path.sep)) {
      current = path.join(current, part);
      const at = hasProcFd ? `/proc/self/fd/${dirFd}/${part}` : current;
      let made = false;
      try {
        fs.mkdirSync(at);
        made = true;
      } catch (error) {
        if (errCode(error) !== 'EEXIST') throw error;
      }
      let fd: number;
      try {
        fd = fs.openSync(at, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
      } catch (error) {
        if (errCode(error) === 'ELOOP' || errCode(error) === 'ENOTDIR') {
          return refused(`A folder on the way to ${shown} is not a plain folder inside the workspace (a link or a file); refused.`);
        }
        throw error;
      }
      closeQuietly(dirFd);
      dirFd = fd;
      if (!descriptorInside(fd, realRoot, current)) {
        if (made) removeIfSame(current, fd);
        return refused(`A folder on the way to ${shown} changed into a link to outside the workspace; refused.`);
      }
    }
    return { ok: true };
  } finally {
    closeQuietly(dirFd);
  }
}

/** Removes the (empty) folder this call made, only while `where` still names that very folder. */
function removeIfSame(where: string, fd: number): void {
  try {
    const named = fs.lstatSync(where);
    const mine = fs.fstatSync(fd);
    if (named.dev === mine.dev && named.ino === mine.ino) fs.rmdirSync(where);
  } catch {
    // Gone already, or no longer that folder: nothing of ours to remove.
  }
}

/**
 * Lists a folder of the workspace by identity: the folder is opened (no symlink followed at its
 * last step), checked to be inside, and listed through its descriptor (Linux) — so a folder
 * swapped for a link to outside is never listed. Null when it cannot be listed safely.
 */
export async function readDirInside(realRoot: string, abs: string): Promise<fs.Dirent[] | null> {
  let fd: number;
  try {
    fd = fs.openSync(abs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!descriptorInside(fd, realRoot, abs)) return null;
    const byDescriptor = descriptorPath(fd) !== null ? `/proc/self/fd/${fd}` : abs;
    return await fs.promises.readdir(byDescriptor, { withFileTypes: true });
  } catch {
    return null;
  } finally {
    closeQuietly(fd);
  }
}

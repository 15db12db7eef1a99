import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Folders the kernel makes up: their files are endless (/proc/self/...), block (FIFOs, ttys) or
 * change on every read. Chats, settings and locks there would hang a start or spin it forever
 * (`--data-dir /proc/self` did), so a data folder may not be in them.
 */
const SYSTEM_FOLDERS = process.platform === 'win32' ? [] : ['/proc', '/sys', '/dev'];

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The deepest folder of `dir`'s path that exists, and what it resolves to (links followed). */
function existingAncestor(dir: string): { path: string; real: string } | null {
  let current = dir;
  for (;;) {
    try {
      return { path: current, real: realpathSync.native(current) };
    } catch {
      const parent = dirname(current);
      if (parent === current) return null;
      current = parent;
    }
  }
}

/**
 * Why `dir` cannot be Waypoint's data folder, in one sentence, or null when it can: it must be
 * (or be creatable as) a folder Waypoint can write, and not inside /proc, /sys or /dev — checked
 * on the real path, so a link into them is refused too. Nothing is created or changed.
 */
export function dataDirProblem(given: string): string | null {
  const dir = resolve(given);
  const found = existingAncestor(dir);
  if (!found) return `data folder "${dir}" cannot be created: none of the folders on its path exists.`;
  const rest = relative(found.path, dir);
  const real = rest ? resolve(found.real, rest) : found.real;
  const system = SYSTEM_FOLDERS.find((root) => within(root, real) || within(root, dir));
  if (system) return `data folder "${dir}" is inside ${system}, a system folder whose files are not files; choose a folder of your own.`;
  let stat;
  try {
    stat = statSync(found.path);
  } catch (error) {
    return `data folder "${dir}" cannot be used: ${(error as Error).message}.`;
  }
  if (!stat.isDirectory()) {
    const what = stat.isFIFO() ? 'a pipe (FIFO)' : stat.isSocket() ? 'a socket' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'a file';
    return found.path === dir ? `data folder "${dir}" is ${what}, not a folder.` : `data folder "${dir}" cannot be created: "${found.path}" is ${what}, not a folder.`;
  }
  try {
    // W_OK on a read-only mount says EROFS even to root.
    accessSync(found.path, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EROFS' ? 'is on a read-only disk' : 'is not writable';
    return found.path === dir ? `data folder "${dir}" ${why}.` : `data folder "${dir}" cannot be created: "${found.path}" ${why}.`;
  }
  return null;
}

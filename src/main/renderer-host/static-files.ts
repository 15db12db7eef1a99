import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** A file found under the static root, or why not. */
export type StaticLookup =
  | { kind: 'file'; path: string; size: number; contentType: string; identity: FileIdentity }
  | { kind: 'not_found' }
  | { kind: 'bad_request'; reason: string };

/** Which file a lookup found: the one opened to serve it must be the same. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Maps a URL path to a file under `root`, refusing anything that would leave it: `..`
 * (raw or %-encoded), backslashes, NUL bytes, symlinks that point outside, and files with more
 * than one hard link — a hard link has no "real path" to check, so its other name may be any file
 * on the disk (a key file, a chat log) planted in the folder under a harmless name.
 */
export async function lookupStatic(root: string, urlPath: string): Promise<StaticLookup> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: 'bad_request', reason: 'Malformed URL encoding.' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'bad_request', reason: 'Invalid path.' };
  if (decoded.split('/').includes('..')) return { kind: 'bad_request', reason: 'Path traversal is not allowed.' };
  const relativePath = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const absRoot = resolve(root);
  const candidate = resolve(join(absRoot, relativePath));
  if (!isInside(absRoot, candidate)) return { kind: 'bad_request', reason: 'Path traversal is not allowed.' };
  try {
    const [realRoot, realFile] = await Promise.all([realpath(absRoot), realpath(candidate)]);
    if (!isInside(realRoot, realFile)) return { kind: 'not_found' };
    const info = await stat(realFile);
    if (!info.isFile() || info.nlink !== 1) return { kind: 'not_found' };
    return { kind: 'file', path: realFile, size: info.size, contentType: contentTypeFor(realFile), identity: { dev: info.dev, ino: info.ino } };
  } catch {
    return { kind: 'not_found' };
  }
}

/**
 * Opens the file a lookup found, and checks the OPENED file: the same device and inode, still a
 * regular file with one link. A file swapped (or linked) between the lookup and the open is
 * refused instead of served. O_NOFOLLOW refuses a symlink swapped in; O_NONBLOCK keeps a FIFO
 * swapped in from blocking the open.
 */
export async function openStatic(found: { path: string; identity: FileIdentity }): Promise<{ stream: NodeJS.ReadableStream; size: number } | null> {
  const handle = await open(found.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return null;
  const info = await handle.stat().catch(() => null);
  if (!info || !info.isFile() || info.nlink !== 1 || info.dev !== found.identity.dev || info.ino !== found.identity.ino) {
    await handle.close().catch(() => undefined);
    return null;
  }
  // The stream closes the handle when it ends or fails.
  return { stream: handle.createReadStream(), size: info.size };
}

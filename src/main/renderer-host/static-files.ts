import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
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
  | { kind: 'file'; path: string; size: number; contentType: string }
  | { kind: 'not_found' }
  | { kind: 'bad_request'; reason: string };

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Maps a URL path to a file under `root`, refusing anything that would leave it: `..`
 * (raw or %-encoded), backslashes, NUL bytes, and symlinks that point outside.
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
    if (!info.isFile()) return { kind: 'not_found' };
    return { kind: 'file', path: realFile, size: info.size, contentType: contentTypeFor(realFile) };
  } catch {
    return { kind: 'not_found' };
  }
}

export function openStatic(path: string): NodeJS.ReadableStream {
  return createReadStream(path);
}

import fs from 'node:fs';
import path from 'node:path';
import type { ToolError } from '../tool';

/**
 * Workspace confinement: every path Claude (or the user) gives is relative to the workspace
 * root and must stay inside it — lexically and after following symlinks. Sync on purpose:
 * `describeDryRun` is synchronous and must confine exactly like `execute` does.
 */

export interface ConfinedPath {
  /** Canonical absolute path (symlinks in existing parts resolved). Use this for fs calls. */
  abs: string;
  /** The normalised relative path as given, for messages ("." for the root). */
  rel: string;
}

export type Confined = { ok: true; path: ConfinedPath } | { ok: false; error: ToolError };

const HOW = 'Paths are relative to the workspace root, e.g. src/app.ts.';
const MAX_PATH_LENGTH = 4096;
const MAX_SYMLINK_HOPS = 40;
// Windows device names are refused even on POSIX: a workspace may be shared with Windows.
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$)(\..*)?$/i;
const ENCODED_TRAVERSAL = /%(2e|2f|5c|00)/i;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const malformed = (message: string): Confined => ({
  ok: false,
  error: { kind: 'invalid_parameter', message: `${message} ${HOW}` },
});
const escape = (given: string, why: string): Confined => ({
  ok: false,
  error: { kind: 'permission', message: `"${given}" is outside the workspace (${why}). ${HOW}` },
});

/** Syntax checks that need no file system. Returns an error message or null. */
function syntaxProblem(given: string): string | null {
  if (given.includes('\0')) return 'The path contains a NUL byte.';
  if (CONTROL_CHARS.test(given)) return 'The path contains control characters.';
  if (given.length > MAX_PATH_LENGTH) return `The path is longer than ${MAX_PATH_LENGTH} characters.`;
  if (given.startsWith('~')) return `"${given}" uses ~ (home directory), which is not allowed.`;
  if (given.startsWith('\\\\') || given.startsWith('//')) return `"${given}" is a network (UNC) path.`;
  if (/^[a-zA-Z]:/.test(given)) return `"${given}" is a Windows drive path.`;
  if (given.includes('\\')) return `"${given}" contains a backslash; use forward slashes.`;
  if (URL_SCHEME.test(given)) return `"${given}" looks like a URL; give a file path.`;
  if (ENCODED_TRAVERSAL.test(given)) return `"${given}" contains URL-encoded characters (%2e, %2f…); give the plain path.`;
  for (const segment of given.split('/')) {
    if (DEVICE_NAME.test(segment)) return `"${segment}" is a reserved device name.`;
  }
  return null;
}

export const isInside = (root: string, candidate: string): boolean => {
  const rel = path.relative(root, candidate);
  // '..notes' is a name inside; only '..' itself or a '../' prefix leaves the root.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

const errCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

/**
 * Where `abs` really points: realpath of the longest existing prefix plus the rest. A dangling
 * symlink is followed to its (not yet existing) target, so writing through it is caught too.
 */
export function canonical(abs: string, hops = 0): string {
  if (hops > MAX_SYMLINK_HOPS) throw Object.assign(new Error('too many symlinks'), { code: 'ELOOP' });
  try {
    return fs.realpathSync.native(abs);
  } catch (error) {
    const code = errCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  let link: string | null = null;
  try {
    if (fs.lstatSync(abs).isSymbolicLink()) link = fs.readlinkSync(abs);
  } catch {
    // Does not exist at all: resolve the parent and append the name.
  }
  if (link !== null) return canonical(path.resolve(path.dirname(abs), link), hops + 1);
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  return path.join(canonical(parent, hops), path.basename(abs));
}

/** The workspace root, canonical. Fails (unavailable) when the folder does not exist. */
export function canonicalRoot(root: string): { ok: true; root: string } | { ok: false; error: ToolError } {
  try {
    const real = fs.realpathSync.native(root);
    if (!fs.statSync(real).isDirectory()) throw new Error('not a directory');
    return { ok: true, root: real };
  } catch {
    return {
      ok: false,
      error: { kind: 'unavailable', message: `The workspace folder ${root} does not exist or is not a folder. Choose a workspace folder in Settings.` },
    };
  }
}

/** Resolve a relative path inside the workspace, or explain why it is refused. */
export function confine(root: string, given: string): Confined {
  const rootResult = canonicalRoot(root);
  if (!rootResult.ok) return rootResult;
  const realRoot = rootResult.root;

  const trimmed = given.trim();
  const problem = syntaxProblem(trimmed);
  if (problem) return malformed(problem);

  if (path.isAbsolute(trimmed)) {
    const lexical = path.resolve(trimmed);
    if (isInside(realRoot, lexical) || isInside(path.resolve(root), lexical)) {
      const base = isInside(realRoot, lexical) ? realRoot : path.resolve(root);
      return malformed(`Absolute paths are not accepted; use "${path.relative(base, lexical) || '.'}" instead.`);
    }
    return escape(trimmed, 'absolute paths are not allowed');
  }

  const lexical = path.resolve(realRoot, trimmed === '' ? '.' : trimmed);
  if (!isInside(realRoot, lexical)) return escape(trimmed, '".." leads out of the workspace');

  let real: string;
  try {
    real = canonical(lexical);
  } catch (error) {
    if (errCode(error) === 'ELOOP') return malformed(`"${trimmed}" goes through a symlink loop.`);
    return malformed(`"${trimmed}" cannot be resolved (${errCode(error) ?? String(error)}).`);
  }
  if (!isInside(realRoot, real)) return escape(trimmed, 'a symlink points outside it');

  return { ok: true, path: { abs: real, rel: path.relative(realRoot, lexical) || '.' } };
}

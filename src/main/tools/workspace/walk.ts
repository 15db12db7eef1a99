import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { closeQuietly, openInside, readAll, readDirInside } from './verified-open';

/**
 * A workspace walk that honours .gitignore files (the root's and nested ones, each relative to
 * its own folder), always skips .git, and never follows symlinked folders (no loops, no escape).
 * Folders are listed by identity (verified-open.ts): one swapped for a link mid-walk is skipped.
 */

export interface WalkEntry {
  /** Relative to the workspace root, forward slashes. */
  rel: string;
  abs: string;
  kind: 'dir' | 'file' | 'symlink';
  /** 1 for the direct children of the start folder. */
  depth: number;
}

interface IgnoreLayer {
  /** Folder the .gitignore lives in, relative to the root ('' for the root). */
  base: string;
  rules: Ignore;
}

const ALWAYS_SKIPPED = new Set(['.git']);

const MAX_GITIGNORE_BYTES = 1024 * 1024;

async function loadLayer(root: string, base: string): Promise<IgnoreLayer | null> {
  try {
    // Opened like any workspace file: a .gitignore that is a FIFO or a link out is not read.
    const opened = openInside(root, base === '' ? '.gitignore' : `${base}/.gitignore`, 'read');
    if (!opened.ok) return null;
    try {
      if (opened.file.stat.size > MAX_GITIGNORE_BYTES) return null;
      return { base, rules: ignore().add((await readAll(opened.file)).toString('utf8')) };
    } finally {
      closeQuietly(opened.file.fd);
    }
  } catch {
    return null;
  }
}

function isIgnored(layers: readonly IgnoreLayer[], rel: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const local = layer.base === '' ? rel : rel.slice(layer.base.length + 1);
    if (local === '' || local === '..' || local.startsWith('../')) continue;
    if (layer.rules.ignores(isDir ? `${local}/` : local)) return true;
  }
  return false;
}

/** Layers that apply to `startRel`: .gitignore files in the root and each folder down to it. */
async function ancestorLayers(root: string, startRel: string): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = [];
  const parts = startRel === '.' || startRel === '' ? [] : startRel.split('/');
  for (let i = 0; i <= parts.length; i++) {
    const layer = await loadLayer(root, parts.slice(0, i).join('/'));
    if (layer) layers.push(layer);
  }
  return layers;
}

export interface WalkOptions {
  maxDepth?: number;
  signal?: AbortSignal;
  /** An entry (by its absolute path under the canonical root) left out with all it holds: Waypoint's data folder (off-limits.ts). */
  skip?(abs: string): boolean;
}

/** Depth-first, folders before files, each sorted by name — stable output for Claude. */
export async function* walk(root: string, startRel: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry> {
  const start = startRel === '.' ? '' : startRel;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;

  async function* visit(dirRel: string, depth: number, layers: IgnoreLayer[]): AsyncGenerator<WalkEntry> {
    if (options.signal?.aborted) return;
    const own = dirRel === start ? null : await loadLayer(root, dirRel);
    const active = own ? [...layers, own] : layers;
    // Unreadable, or no longer a folder inside the workspace: skip it rather than fail the whole walk.
    const entries = await readDirInside(root, path.join(root, dirRel));
    if (!entries) return;
    const visible = entries
      .filter((e) => !ALWAYS_SKIPPED.has(e.name))
      .map((e) => {
        const rel = dirRel === '' ? e.name : `${dirRel}/${e.name}`;
        const kind: WalkEntry['kind'] = e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : 'file';
        return { rel, abs: path.join(root, rel), kind, depth };
      })
      .filter((e) => !isIgnored(active, e.rel, e.kind === 'dir') && !options.skip?.(e.abs))
      .sort((a, b) => (a.kind === 'dir') === (b.kind === 'dir') ? (a.rel < b.rel ? -1 : 1) : a.kind === 'dir' ? -1 : 1);
    for (const entry of visible) {
      yield entry;
      if (entry.kind === 'dir' && depth < maxDepth) yield* visit(entry.rel, depth + 1, active);
    }
  }

  yield* visit(start, 1, await ancestorLayers(root, start));
}

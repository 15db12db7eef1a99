import { execFile } from 'node:child_process';
import path from 'node:path';
import type { FileKind, FileSource } from './file-source';

/** No prompt takes more of a file than this (as TextFileCache reads). */
const MAX_TEXT_BYTES = 256 * 1024;
/** Links followed in one path before giving up, as the kernel does (ELOOP). */
const MAX_LINKS = 40;

interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  oid: string;
}

const isInside = (outer: string, inner: string): boolean => {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** A path inside the tree, as components from its root; or the path outside it a link led to. */
type Resolved = { inside: string[]; entry: TreeEntry | 'root' } | { outside: string } | null;

/**
 * A commit's tree read from git's objects as if it were checked out at `root`: what a new
 * worktree will hold once `git worktree add` is done (its tree at creation is the commit's,
 * exactly). Lets the first request of a worktree chat read its instructions and skills while the
 * checkout still writes files (docs/architecture.md "Worktrees and Changes"). Each folder is one
 * `git ls-tree`, each file one `git cat-file`, both cached: a commit never changes. Symlinks in
 * the tree are followed as the disk would follow them; one leading outside `root` is reported as
 * that outside path (callers refuse it, as they refuse such a link on disk).
 */
export class GitTreeFiles implements FileSource {
  private readonly trees = new Map<string, Promise<Map<string, TreeEntry> | null>>();
  private readonly blobs = new Map<string, Promise<Buffer | null>>();

  constructor(
    private readonly repo: string,
    private readonly commit: string,
    private readonly root: string,
  ) {}

  async realpath(p: string): Promise<string | null> {
    const at = await this.resolve(p);
    if (!at) return null;
    return 'outside' in at ? at.outside : path.join(this.root, ...at.inside);
  }

  async kind(p: string): Promise<FileKind | null> {
    const at = await this.resolve(p);
    if (!at || 'outside' in at) return null;
    if (at.entry === 'root' || at.entry.type === 'tree') return 'dir';
    return at.entry.type === 'blob' && at.entry.mode !== '120000' ? 'file' : null;
  }

  async exists(p: string): Promise<boolean> {
    // The checked-out worktree has a `.git` file at its root (the repository root of its
    // instruction chain) that no commit holds.
    if (path.resolve(p) === path.join(this.root, '.git')) return true;
    if (!isInside(this.root, p)) return false;
    const rel = path.relative(this.root, p);
    if (rel === '') return true;
    const parent = await this.resolve(path.dirname(path.resolve(p)));
    if (!parent || 'outside' in parent) return false;
    return (await this.tree(parent.inside))?.has(path.basename(p)) ?? false;
  }

  async readText(p: string): Promise<string | null> {
    const at = await this.resolve(p);
    if (!at || 'outside' in at || at.entry === 'root' || at.entry.type !== 'blob' || at.entry.mode === '120000') return null;
    const bytes = await this.blob(at.entry.oid);
    return bytes ? bytes.subarray(0, MAX_TEXT_BYTES).toString('utf8') : null;
  }

  async entries(dir: string): Promise<Array<{ name: string; dir: boolean; link: boolean }>> {
    const at = await this.resolve(dir);
    if (!at || 'outside' in at || (at.entry !== 'root' && at.entry.type !== 'tree')) return [];
    const tree = await this.tree(at.inside);
    return [...(tree ?? new Map<string, TreeEntry>())].map(([name, e]) => ({ name, dir: e.type === 'tree', link: e.mode === '120000' }));
  }

  /** Walks `p` from the root, following links in the tree as the disk would. */
  private async resolve(p: string): Promise<Resolved> {
    let pending = path.resolve(p);
    if (!isInside(this.root, pending)) return { outside: pending };
    let queue = path.relative(this.root, pending).split(path.sep).filter(Boolean);
    let done: string[] = [];
    let entry: TreeEntry | 'root' = 'root';
    for (let links = 0; queue.length > 0; ) {
      const name = queue.shift()!;
      if (name === '.') continue;
      if (name === '..') {
        if (done.length === 0) return { outside: path.dirname(this.root) };
        done = done.slice(0, -1);
        entry = done.length === 0 ? 'root' : ((await this.entryAt(done)) ?? 'root');
        continue;
      }
      if (entry !== 'root' && entry.type !== 'tree') return null;
      const found = (await this.tree(done))?.get(name);
      if (!found) return null;
      if (found.mode === '120000') {
        if (++links > MAX_LINKS) return null;
        const target = (await this.blob(found.oid))?.toString('utf8');
        if (target === undefined) return null;
        pending = path.resolve(path.join(this.root, ...done), target);
        if (!isInside(this.root, pending)) return { outside: path.join(pending, ...queue) };
        queue = [...path.relative(this.root, pending).split(path.sep).filter(Boolean), ...queue];
        done = [];
        entry = 'root';
        continue;
      }
      done = [...done, name];
      entry = found;
    }
    return { inside: done, entry };
  }

  private async entryAt(parts: string[]): Promise<TreeEntry | null> {
    return (await this.tree(parts.slice(0, -1)))?.get(parts[parts.length - 1]!) ?? null;
  }

  /** One folder of the commit's tree (components from its root), or null when it is none. */
  private tree(parts: string[]): Promise<Map<string, TreeEntry> | null> {
    const key = parts.join('/');
    let got = this.trees.get(key);
    if (!got) {
      got = this.git(['ls-tree', '-z', `${this.commit}:${key}`]).then((out) => {
        if (!out) return null;
        const entries = new Map<string, TreeEntry>();
        for (const line of out.toString('utf8').split('\0')) {
          const m = /^(\d+) (blob|tree|commit) ([0-9a-f]+)\t(.+)$/s.exec(line);
          if (m) entries.set(m[4]!, { mode: m[1]!, type: m[2] as TreeEntry['type'], oid: m[3]! });
        }
        return entries;
      });
      this.trees.set(key, got);
    }
    return got;
  }

  private blob(oid: string): Promise<Buffer | null> {
    let got = this.blobs.get(oid);
    if (!got) {
      got = this.git(['cat-file', 'blob', oid]);
      this.blobs.set(oid, got);
    }
    return got;
  }

  /** git's stdout as bytes, or null when git said no (a path not in the commit). */
  private git(args: string[]): Promise<Buffer | null> {
    return new Promise((resolve) => {
      execFile('git', args, { cwd: this.repo, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } }, (error, stdout) =>
        resolve(error ? null : stdout),
      );
    });
  }
}

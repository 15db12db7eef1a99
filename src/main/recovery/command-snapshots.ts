import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../common/atomic-write';
import { readRegularFile } from '../common/regular-file';
import { CheckpointBlobs, SerialQueue, resolveIn, type Snapshot } from './checkpoint-blobs';
import { gitRunner, type GitRunner } from './worktree/git';

/**
 * What run_command changed in a chat's plain folder (no worktree), for "Changes"
 * (docs/architecture.md "Commands in a plain folder"). A command can touch any file, so the
 * folder is snapshotted before and after each command into a shadow git repository of the chat's
 * own, `<dataDir>/checkpoints/<chat>/shadow/<folder hash>/`: GIT_DIR is there, the workspace is
 * only its work tree, so the user's own .git is never read or written and nothing is left in the
 * workspace. `git add --all` into the shadow's index hashes only files whose stat changed (the
 * first snapshot of a folder hashes them all, once), honours the folder's .gitignore, and leaves
 * out node_modules. Each file a command changed keeps its content from before the first command
 * that changed it (in the checkpoint blobs, like the file tools' checkpoints), unless Claude's file
 * tools had already captured it: whichever touched a file first holds what it was before the chat.
 */

/** A file a command changed first, and what it was before (a blob hash, or null: it did not exist). */
export interface CommandOrigin {
  root: string;
  rel: string;
  before: Snapshot;
}

interface Manifest {
  files: CommandOrigin[];
}

const execFileAsync = promisify(execFile);
const MANIFEST = 'commands.manifest.json';
/** Folders too big to snapshot and never what a chat means to change; git never enters .git anyway. */
const EXCLUDED = ['node_modules/'];

export interface CommandSnapshotsOptions {
  dataDir: string;
  queue: SerialQueue;
  /** Whether Claude's file tools already captured the file (their checkpoint is the older one). */
  capturedByFileTools(sessionId: string, root: string, rel: string): Promise<boolean>;
  git?: GitRunner;
  /** The git program the runner uses ("git" on PATH). */
  gitBin?: string;
  /** How long one snapshot may take (default 30 s): a folder slower than that is not followed. */
  snapshotLimitMs?: number;
}

const SNAPSHOT_LIMIT_MS = 30_000;

export class CommandSnapshots {
  private readonly blobs: CheckpointBlobs;
  private readonly git: GitRunner;
  /** Git work per shadow repository, one at a time (two commands at once share its index). */
  private readonly shadows = new Map<string, SerialQueue>();
  /**
   * Shadows of folders too big to snapshot in time (a home folder, a tree with no .gitignore):
   * every command would wait that long again, so they are not followed for the rest of the process.
   */
  private readonly tooBig = new Set<string>();

  constructor(private readonly options: CommandSnapshotsOptions) {
    this.blobs = new CheckpointBlobs(options.dataDir);
    this.git = options.git ?? gitRunner();
  }

  private shadowDir(sessionId: string, root: string): string {
    const key = createHash('sha256').update(root).digest('hex').slice(0, 16);
    return path.join(this.blobs.dir(sessionId), 'shadow', key);
  }

  private inShadow<T>(dir: string, work: () => Promise<T>): Promise<T> {
    let queue = this.shadows.get(dir);
    if (!queue) this.shadows.set(dir, (queue = new SerialQueue()));
    return queue.run(work);
  }

  private run(dir: string, root: string, args: string[], signal?: AbortSignal) {
    // GIT_DIR and GIT_WORK_TREE name the shadow and the folder; the user's own repository (if any) is not looked for.
    return this.git.run(root, args, {
      env: { GIT_DIR: dir, GIT_WORK_TREE: root, GIT_INDEX_FILE: path.join(dir, 'index'), GIT_OPTIONAL_LOCKS: '0' },
      ...(signal ? { signal } : {}),
    });
  }

  /** Whether commands' changes in `root` go unfollowed in this chat (its snapshot took too long). */
  notFollowed(sessionId: string, root: string | null): boolean {
    return !!root && this.tooBig.has(this.shadowDir(sessionId, root));
  }

  private async ensureShadow(dir: string, root: string): Promise<void> {
    if (await fsp.stat(path.join(dir, 'HEAD')).then(() => true, () => false)) return;
    await fsp.mkdir(dir, { recursive: true });
    await this.git.run(dir, ['init', '--quiet', '--bare', dir]);
    for (const [key, value] of [
      ['core.bare', 'false'],
      ['core.autocrlf', 'false'],
      ['core.quotepath', 'false'],
      ['core.untrackedCache', 'true'],
      ['core.fsmonitor', 'false'],
      ['gc.auto', '0'],
      ['advice.addEmbeddedRepo', 'false'],
    ]) {
      await this.git.run(dir, ['--git-dir', dir, 'config', key!, value!]);
    }
    // Waypoint's data folder inside the workspace is never snapshotted (the shadow would take itself in).
    const data = path.relative(root, this.options.dataDir);
    const extra = data && !data.startsWith('..') && !path.isAbsolute(data) ? [`/${data.split(path.sep).join('/')}/`] : [];
    await fsp.mkdir(path.join(dir, 'info'), { recursive: true });
    await fsp.writeFile(path.join(dir, 'info', 'exclude'), `${[...EXCLUDED, ...extra].join('\n')}\n`);
  }

  /** The folder as it is now, as a tree in the shadow repository. */
  private async tree(dir: string, root: string): Promise<string> {
    await this.ensureShadow(dir, root);
    // Only this queue writes the shadow: a lock left is from a git killed past the limit (or a crash).
    await fsp.rm(path.join(dir, 'index.lock'), { force: true });
    const limitMs = this.options.snapshotLimitMs ?? SNAPSHOT_LIMIT_MS;
    const late = new AbortController();
    const timer = setTimeout(() => late.abort(), limitMs);
    try {
      await this.run(dir, root, ['add', '--all', '--ignore-errors', '--', '.'], late.signal).catch(() => {
        // A file unreadable or gone mid-walk: what could be added was; the tree is still written.
      });
    } finally {
      clearTimeout(timer);
    }
    // Decided by the timer, not by how git's end was reported (a kill can race its exit).
    if (late.signal.aborted) {
      this.tooBig.add(dir);
      throw new Error(`the snapshot took over ${Math.round(limitMs / 1000)} s; what commands change there is not followed`);
    }
    const tree = (await this.run(dir, root, ['write-tree'])).stdout.trim();
    if (!/^[0-9a-f]{40,64}$/.test(tree)) throw new Error(`git write-tree gave no tree (${JSON.stringify(tree.slice(0, 80))})`);
    return tree;
  }

  /** Before a command runs in `root`: its snapshot (null when none could be taken, or none is needed: the command still runs). */
  before(sessionId: string, root: string): Promise<string | null> {
    // A worktree chat's Changes come from git itself (worktree-changes.ts).
    if (isInside(path.join(this.options.dataDir, 'worktrees'), root)) return Promise.resolve(null);
    const dir = this.shadowDir(sessionId, root);
    if (this.tooBig.has(dir)) return Promise.resolve(null);
    return this.inShadow(dir, () => this.tree(dir, root)).catch((error: Error) => {
      console.warn(`[waypoint] could not snapshot ${root} before a command: ${error.message}`);
      return null;
    });
  }

  /** After it ran (or failed, or was stopped): the files it changed keep their content from before, if nothing of the chat's had touched them yet. */
  async after(sessionId: string, root: string, before: string): Promise<void> {
    const dir = this.shadowDir(sessionId, root);
    try {
      const changed = await this.inShadow(dir, async () => {
        const after = await this.tree(dir, root);
        if (after === before) return [];
        const raw = (await this.run(dir, root, ['diff-tree', '-r', '-z', '--no-renames', before, after])).stdout;
        return parseRaw(raw);
      });
      // Read before the manifest's turn on the queue (the file tools' checkpoints are on it too).
      const fresh: RawChange[] = [];
      for (const change of changed) {
        if (resolveIn(root, change.rel) && !(await this.options.capturedByFileTools(sessionId, root, change.rel))) fresh.push(change);
      }
      if (fresh.length === 0) return;
      await this.options.queue.run(async () => {
        const manifest = await this.load(sessionId);
        const known = new Set(manifest.files.filter((f) => f.root === root).map((f) => f.rel));
        for (const change of fresh) {
          if (known.has(change.rel)) continue;
          const beforeBlob = change.oldSha === null ? null : await this.keep(sessionId, dir, root, change.oldSha);
          manifest.files.push({ root, rel: change.rel, before: beforeBlob });
          known.add(change.rel);
        }
        await this.save(sessionId, manifest);
      });
    } catch (error) {
      console.warn(`[waypoint] could not see what a command changed in ${root}: ${(error as Error).message}`);
    }
  }

  /** A blob of the shadow copied into the checkpoint blobs, where Changes and Revert file read it. */
  private async keep(sessionId: string, dir: string, root: string, sha: string): Promise<string> {
    // Bytes, not text: a binary file comes back as it was.
    const { stdout } = await execFileAsync(this.options.gitBin ?? 'git', ['--git-dir', dir, 'cat-file', 'blob', sha], { cwd: root, encoding: 'buffer', maxBuffer: 1 << 30 });
    return this.blobs.store(sessionId, stdout);
  }

  /** Files commands changed first in `root`, with their content before. */
  origins(sessionId: string, root: string | null): Promise<CommandOrigin[]> {
    return this.options.queue.run(async () => (root ? (await this.load(sessionId)).files.filter((f) => f.root === root) : []));
  }

  private async load(sessionId: string): Promise<Manifest> {
    try {
      const parsed = JSON.parse((await readRegularFile(path.join(this.blobs.dir(sessionId), MANIFEST))).toString('utf8')) as Manifest;
      return Array.isArray(parsed.files) ? parsed : { files: [] };
    } catch {
      return { files: [] };
    }
  }

  private async save(sessionId: string, manifest: Manifest): Promise<void> {
    await fsp.mkdir(this.blobs.dir(sessionId), { recursive: true });
    await writeFileAtomic(path.join(this.blobs.dir(sessionId), MANIFEST), JSON.stringify(manifest));
  }
}

function isInside(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

interface RawChange {
  rel: string;
  /** null: the file did not exist before. */
  oldSha: string | null;
}

/** `git diff-tree -r -z` output: ":oldmode newmode oldsha newsha status\0path\0" per file. */
function parseRaw(raw: string): RawChange[] {
  const parts = raw.split('\0');
  const out: RawChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!.split(' ');
    const rel = parts[i + 1]!;
    if (meta.length < 5 || !rel) continue;
    const [oldMode, , oldSha, newSha] = [meta[0]!.replace(/^:/, ''), meta[1], meta[2]!, meta[3]];
    if (oldSha === newSha) continue; // a mode change only: its content is as it was
    // A gitlink (an embedded repository) is a commit, not a file: nothing to put back.
    if (oldMode === '160000' || meta[1] === '160000') continue;
    out.push({ rel, oldSha: /^0+$/.test(oldSha) ? null : oldSha });
  }
  return out;
}

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../common/atomic-write';
import { readRegularFile } from '../common/regular-file';
import { CheckpointBlobs, SerialQueue, resolveIn, type Snapshot } from './checkpoint-blobs';
import { GitFailed, gitRunner, type GitRunner } from './worktree/git';

/**
 * What run_command changed in a chat's plain folder (no worktree), for "Changes"
 * (docs/architecture.md "Commands in a plain folder"). A command can touch any file, so the
 * folder is snapshotted before and after each command into a shadow git repository of the chat's
 * own, `<dataDir>/checkpoints/<chat>/shadow/<folder hash>/`: GIT_DIR is there, the workspace is
 * only its work tree, so the user's own .git is never read or written and nothing is left in the
 * workspace. Its objects are not its own: every chat of a folder writes them to one store,
 * `<dataDir>/shadow-objects/<folder hash>/` (GIT_OBJECT_DIRECTORY), so fifty chats in a big
 * folder keep one copy of its files, not fifty; each chat's index and refs stay its own, so their
 * snapshots never mix, and the store goes when the last chat of its folder is deleted
 * (dropUnused). `git add --all` into the shadow's index hashes only files whose stat changed (the
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
/** Under the data folder: one git object store per workspace folder, shared by its chats' shadows. */
const SHARED_OBJECTS = 'shadow-objects';

const folderKey = (root: string): string => createHash('sha256').update(root).digest('hex').slice(0, 16);
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
  /** Per folder hash: snapshots running now, and a removal of its shared store under way. */
  private readonly folders = new Map<string, FolderUse>();

  constructor(private readonly options: CommandSnapshotsOptions) {
    this.blobs = new CheckpointBlobs(options.dataDir);
    this.git = options.git ?? gitRunner();
  }

  private shadowDir(sessionId: string, root: string): string {
    return path.join(this.blobs.dir(sessionId), 'shadow', folderKey(root));
  }

  private objectsDir(key: string): string {
    return path.join(this.options.dataDir, SHARED_OBJECTS, key);
  }

  /** Git's environment for a chat's shadow: its own index and refs, the folder's shared objects. */
  private env(dir: string): NodeJS.ProcessEnv {
    return {
      GIT_DIR: dir,
      GIT_INDEX_FILE: path.join(dir, 'index'),
      GIT_OBJECT_DIRECTORY: this.objectsDir(path.basename(dir)),
      GIT_OPTIONAL_LOCKS: '0',
    };
  }

  /**
   * A snapshot of the folder `key` is under way: the shared store is not removed meanwhile (a
   * chat's first snapshot makes its shadow folder, which keeps the store, only once it started).
   */
  private async using<T>(key: string, work: () => Promise<T>): Promise<T> {
    let use = this.folders.get(key);
    if (!use) this.folders.set(key, (use = { active: 0 }));
    use.active++;
    try {
      while (use.removing) await use.removing;
      return await work();
    } finally {
      use.active--;
      if (use.active === 0 && !use.removing) {
        this.folders.delete(key);
        // A chat of this folder was deleted while this snapshot ran: see now whether the store is still wanted.
        if (use.dropWanted) void this.dropUnused([key]);
      }
    }
  }

  private inShadow<T>(dir: string, work: () => Promise<T>): Promise<T> {
    let queue = this.shadows.get(dir);
    if (!queue) this.shadows.set(dir, (queue = new SerialQueue()));
    return queue.run(work);
  }

  private run(dir: string, root: string, args: string[], signal?: AbortSignal) {
    // GIT_DIR and GIT_WORK_TREE name the shadow and the folder; the user's own repository (if any) is not looked for.
    return this.git.run(root, args, {
      env: { ...this.env(dir), GIT_WORK_TREE: root },
      ...(signal ? { signal } : {}),
    });
  }

  /** Whether commands' changes in `root` go unfollowed in this chat (its snapshot took too long). */
  notFollowed(sessionId: string, root: string | null): boolean {
    return !!root && this.tooBig.has(this.shadowDir(sessionId, root));
  }

  private async ensureShadow(dir: string, root: string): Promise<void> {
    // info/exclude is written last: a shadow whose making was cut short is made again.
    if (await fsp.stat(path.join(dir, 'info', 'exclude')).then(() => true, () => false)) return;
    await fsp.mkdir(dir, { recursive: true });
    // With GIT_OBJECT_DIRECTORY set, init fills the shared store (if it is new) and makes no
    // objects of the chat's own; no template: sample hooks (never run here) would be copied per chat.
    await this.git.run(dir, ['init', '--quiet', '--bare', '--template=', dir], { env: this.env(dir) });
    // Empty, but git takes a folder without one for no repository at all.
    await fsp.mkdir(path.join(dir, 'objects'), { recursive: true });
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
    // After a store went (removed by hand; or a shadow made before stores were shared, whose
    // objects are its own), the index names blobs and trees the store lacks: write-tree refuses
    // them, or hands back a tree it remembers but the store lacks, and every command would fail
    // again. Such a shadow starts afresh: the folder is hashed into the store again.
    const tree = await this.addAll(dir, root).catch((error: unknown) => {
      if (error instanceof GitFailed && /invalid object/.test(error.stderr)) return null;
      throw error;
    });
    if (tree && (await this.run(dir, root, ['cat-file', '-e', tree]).catch(() => ({ code: 1 }))).code === 0) return tree;
    await fsp.rm(path.join(dir, 'index'), { force: true });
    await fsp.rm(path.join(dir, 'objects'), { recursive: true, force: true });
    await fsp.mkdir(path.join(dir, 'objects'), { recursive: true });
    return this.addAll(dir, root);
  }

  private async addAll(dir: string, root: string): Promise<string> {
    // git wants the store there before it writes to it (it is made afresh if it went).
    await fsp.mkdir(this.objectsDir(path.basename(dir)), { recursive: true });
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
    return this.inShadow(dir, () => this.using(folderKey(root), () => this.tree(dir, root))).catch((error: Error) => {
      console.warn(`[waypoint] could not snapshot ${root} before a command: ${error.message}`);
      return null;
    });
  }

  /** After it ran (or failed, or was stopped): the files it changed keep their content from before, if nothing of the chat's had touched them yet. */
  async after(sessionId: string, root: string, before: string): Promise<void> {
    const dir = this.shadowDir(sessionId, root);
    try {
      // All of it in use of the shared store: the contents before are copied out of it at the end.
      await this.using(folderKey(root), () => this.changedBy(sessionId, dir, root, before));
    } catch (error) {
      console.warn(`[waypoint] could not see what a command changed in ${root}: ${(error as Error).message}`);
    }
  }

  private async changedBy(sessionId: string, dir: string, root: string, before: string): Promise<void> {
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
  }

  /**
   * A blob of the shadow copied into the checkpoint blobs, where Changes and Revert file read it:
   * they never read the shared store, so another chat's deletion cannot take what they need.
   */
  private async keep(sessionId: string, dir: string, root: string, sha: string): Promise<string> {
    // Bytes, not text: a binary file comes back as it was.
    const { stdout } = await execFileAsync(this.options.gitBin ?? 'git', ['cat-file', 'blob', sha], { cwd: root, env: { ...process.env, ...this.env(dir) }, encoding: 'buffer', maxBuffer: 1 << 30 });
    return this.blobs.store(sessionId, stdout);
  }

  /** The folder hashes a chat has shadows of (read before its checkpoints are removed). */
  async foldersOf(sessionId: string): Promise<string[]> {
    return fsp.readdir(path.join(this.blobs.dir(sessionId), 'shadow')).catch(() => []);
  }

  /** Every folder with a shared store now (the start-up sweep asks each whether a chat still uses it). */
  async storeKeys(): Promise<string[]> {
    return (await fsp.readdir(path.join(this.options.dataDir, SHARED_OBJECTS)).catch(() => [] as string[])).filter((key) => /^[0-9a-f]{16}$/.test(key));
  }

  /**
   * After a chat's checkpoints were removed: the shared store of each of these folders goes when
   * no chat has a shadow of it any more (and none is snapshotting it now).
   */
  async dropUnused(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      if (!/^[0-9a-f]{16}$/.test(key)) continue;
      const use = this.folders.get(key) ?? { active: 0 };
      this.folders.set(key, use);
      if (use.active > 0 || use.removing) {
        use.dropWanted = true;
        continue;
      }
      use.dropWanted = false;
      use.removing = (async () => {
        const chats = await fsp.readdir(path.join(this.options.dataDir, 'checkpoints')).catch(() => [] as string[]);
        for (const chat of chats) {
          if (await fsp.stat(path.join(this.options.dataDir, 'checkpoints', chat, 'shadow', key)).then(() => true, () => false)) return;
        }
        await fsp.rm(this.objectsDir(key), { recursive: true, force: true });
        // The parent too once it is empty (another folder's store keeps it: ENOTEMPTY is fine).
        await fsp.rmdir(path.dirname(this.objectsDir(key))).catch(() => {});
      })()
        .catch((error: Error) => console.warn(`[waypoint] could not remove the shadow objects of a folder no chat uses: ${error.message}`))
        .finally(() => {
          use.removing = undefined;
          if (use.active === 0) this.folders.delete(key);
        });
      await use.removing;
    }
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

interface FolderUse {
  active: number;
  removing?: Promise<void> | undefined;
  /** A chat of the folder was deleted while a snapshot ran: look again when none does. */
  dropWanted?: boolean;
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

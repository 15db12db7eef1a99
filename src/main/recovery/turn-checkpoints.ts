import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../common/atomic-write';
import { readRegularFile } from '../common/regular-file';
import { CheckpointBlobs, resolveIn, type SerialQueue, type Snapshot } from './checkpoint-blobs';
import type { UndoPreviewFile, UndoResult } from './checkpoints';

/**
 * File checkpoints per turn, for Edit message and Retry reply (docs/contract.md §5): before Claude's
 * write_file or edit_file first changes a file in the turn a user message started, the file as it
 * was is saved, inside a plan or not. Putting back "the turns from this message on" restores each
 * file as it was before the first of those turns changed it. run_command is only counted: what a
 * command did cannot be put back, and the offer says so.
 *
 * One manifest per chat, `<dataDir>/checkpoints/<session>/turns.manifest.json` (a name no plan's
 * manifest can have), beside the plans' manifests and sharing their blobs. Entries are per
 * workspace folder: a chat whose folder changed never has files of the old one put back in the new.
 */

interface Capture {
  /** The user message whose turn changed the file. */
  turn: string;
  before: Snapshot;
}

interface FileEntry {
  root: string;
  rel: string;
  /** In the order the turns first changed the file. */
  captures: Capture[];
  /** After Waypoint's last write; absent until a write succeeded. */
  lastWritten?: Snapshot;
}

interface Manifest {
  files: FileEntry[];
  /** How many run_command calls each turn made. */
  commands: Record<string, number>;
}

export interface TurnPreview {
  files: UndoPreviewFile[];
  /** run_command calls in those turns: their effects cannot be put back. */
  commands: number;
}

const MANIFEST = 'turns.manifest.json';

export class TurnCheckpoints {
  private readonly blobs: CheckpointBlobs;

  constructor(dataDir: string, private readonly queue: SerialQueue) {
    this.blobs = new CheckpointBlobs(dataDir);
  }

  /** Saves the file as it is before `turn` first changes it. */
  capture(root: string | null, sessionId: string, turn: string, relPath: string): Promise<void> {
    return this.queue.run(async () => {
      const target = resolveIn(root, relPath);
      if (!root || !target) return;
      const manifest = await this.load(sessionId);
      let entry = manifest.files.find((f) => f.root === root && f.rel === target.rel);
      if (entry?.captures.some((c) => c.turn === turn)) return;
      const before = await this.blobs.snapshot(sessionId, target.abs);
      if (before === 'folder') return;
      if (!entry) {
        entry = { root, rel: target.rel, captures: [] };
        manifest.files.push(entry);
      }
      entry.captures.push({ turn, before });
      await this.save(sessionId, manifest);
    });
  }

  /** After a successful write: remember what Waypoint left there, so a later change by someone else shows. */
  recordWrite(root: string | null, sessionId: string, relPath: string): Promise<void> {
    return this.queue.run(async () => {
      const target = resolveIn(root, relPath);
      if (!target) return;
      const manifest = await this.load(sessionId);
      const entry = manifest.files.find((f) => f.root === root && f.rel === target.rel);
      if (!entry) return;
      entry.lastWritten = await this.blobs.currentHash(target.abs);
      await this.save(sessionId, manifest);
    });
  }

  /** Whether the file tools captured `rel` in `root` in any turn (not on the queue: command-snapshots.ts asks while it waits its turn). */
  async hasCaptured(root: string, sessionId: string, rel: string): Promise<boolean> {
    return (await this.load(sessionId)).files.some((f) => f.root === root && f.rel === rel && f.captures.length > 0);
  }

  /** A run_command call in `turn` (counted before it runs: a failed command may have changed things too). */
  recordCommand(sessionId: string, turn: string): Promise<void> {
    return this.queue.run(async () => {
      const manifest = await this.load(sessionId);
      manifest.commands[turn] = (manifest.commands[turn] ?? 0) + 1;
      await this.save(sessionId, manifest);
    });
  }

  /**
   * Every file Claude's file tools changed in `root` in any turn, with what it was before the
   * first of them (the "Changes" of a chat in a plain folder, folder-changes.ts).
   */
  origins(root: string | null, sessionId: string): Promise<{ rel: string; abs: string; before: Snapshot }[]> {
    return this.queue.run(async () => {
      const manifest = await this.load(sessionId);
      const out: { rel: string; abs: string; before: Snapshot }[] = [];
      for (const entry of manifest.files) {
        const target = entry.root === root ? resolveIn(root, entry.rel) : null;
        const first = entry.captures[0];
        if (target && first) out.push({ rel: target.rel, abs: target.abs, before: first.before });
      }
      return out;
    });
  }

  /** What putting back `turns` would do in `root`: files that differ from before those turns, and the commands they ran. */
  preview(root: string | null, sessionId: string, turns: readonly string[]): Promise<TurnPreview> {
    return this.queue.run(async () => {
      const manifest = await this.load(sessionId);
      const pending = await this.pending(root, manifest, new Set(turns));
      return { files: pending.map(({ file }) => file), commands: commandsOf(manifest, turns) };
    });
  }

  /** Puts every file `turns` changed in `root` back as it was before them; a file changed outside Waypoint since is left alone unless asked. */
  restore(root: string | null, sessionId: string, turns: readonly string[], overwriteChangedOutside: boolean): Promise<UndoResult> {
    return this.queue.run(async () => {
      const result: UndoResult = { restored: [], deleted: [], skipped: [] };
      const manifest = await this.load(sessionId);
      const replaced = new Set(turns);
      for (const { file, abs, before } of await this.pending(root, manifest, replaced)) {
        if (file.changedOutside && !overwriteChangedOutside) {
          result.skipped.push(file.path);
          continue;
        }
        await this.blobs.put(sessionId, abs, before);
        (file.action === 'delete' ? result.deleted : result.restored).push(file.path);
      }
      // The replaced turns are gone from the chat: their captures and commands with them, except a skipped file's.
      const skipped = new Set(result.skipped);
      for (const entry of manifest.files) {
        if (entry.root !== root || skipped.has(entry.rel)) continue;
        const first = entry.captures.find((c) => replaced.has(c.turn));
        entry.captures = entry.captures.filter((c) => !replaced.has(c.turn));
        if (first) entry.lastWritten = first.before;
      }
      manifest.files = manifest.files.filter((f) => f.captures.length > 0);
      for (const turn of turns) delete manifest.commands[turn];
      await this.save(sessionId, manifest);
      return result;
    });
  }

  private async pending(root: string | null, manifest: Manifest, turns: ReadonlySet<string>) {
    const out: { file: UndoPreviewFile; abs: string; before: Snapshot }[] = [];
    for (const entry of manifest.files) {
      if (entry.root !== root) continue;
      const first = entry.captures.find((c) => turns.has(c.turn));
      const target = first ? resolveIn(root, entry.rel) : null;
      if (!first || !target) continue;
      const current = await this.blobs.currentHash(target.abs);
      if (current === first.before) continue; // already as it was
      const expected = entry.lastWritten === undefined ? entry.captures.at(-1)!.before : entry.lastWritten;
      out.push({ file: { path: entry.rel, action: first.before === null ? 'delete' : 'restore', changedOutside: current !== expected }, abs: target.abs, before: first.before });
    }
    return out.sort((a, b) => a.file.path.localeCompare(b.file.path));
  }

  private file(sessionId: string): string {
    return path.join(this.blobs.dir(sessionId), MANIFEST);
  }

  private async load(sessionId: string): Promise<Manifest> {
    try {
      // Never a FIFO planted in the data folder: its read would hold a thread forever (regular-file.ts).
      const parsed = JSON.parse((await readRegularFile(this.file(sessionId))).toString('utf8')) as Partial<Manifest>;
      if (parsed && Array.isArray(parsed.files)) return { files: parsed.files, commands: parsed.commands ?? {} };
    } catch {
      // missing or damaged: start empty (a damaged manifest must not break the run)
    }
    return { files: [], commands: {} };
  }

  private async save(sessionId: string, manifest: Manifest): Promise<void> {
    const file = this.file(sessionId);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify(manifest, null, 1));
  }
}

const commandsOf = (manifest: Manifest, turns: readonly string[]): number => turns.reduce((sum, turn) => sum + (manifest.commands[turn] ?? 0), 0);

/** A chat's items as far as a turn needs them: kinds and ids, nothing read from the log. */
interface ItemKinds {
  readonly itemCount: number;
  kindAt(index: number): string | undefined;
  idAt(index: number): string | undefined;
}

/** The turn a call now belongs to: the chat's last user message (its id), or null in a chat with none. */
export function turnOf(items: ItemKinds): string | null {
  for (let i = items.itemCount - 1; i >= 0; i--) if (items.kindAt(i) === 'user') return items.idAt(i) ?? null;
  return null;
}

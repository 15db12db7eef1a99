import fsp from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../common/atomic-write';
import { readRegularFile } from '../common/regular-file';
import { CheckpointBlobs, resolveIn, safeName, type SerialQueue, type Snapshot } from './checkpoint-blobs';

/**
 * File checkpoints for rollback and "Undo plan" (docs/contract.md §3). Before a plan step first changes
 * a file, its prior content (or its absence) is saved under the chat's data folder:
 * `<dataDir>/checkpoints/<session>/<plan>.json` (a manifest) and `blobs/<sha256>` (contents).
 * The manifest also remembers what Waypoint last wrote, so an undo can tell a file changed
 * outside Waypoint since and leave it alone unless the user says otherwise.
 */

interface FileEntry {
  /** Before the plan first touched it: what "Undo plan" restores. */
  original: Snapshot;
  /** Before each step first touched it: what rollback_and_retry restores. */
  steps: Record<string, Snapshot>;
  /** After Waypoint's last write; absent until a write succeeded. */
  lastWritten?: Snapshot;
}

interface Manifest {
  planId: string;
  files: Record<string, FileEntry>;
}

export interface UndoPreviewFile {
  path: string;
  action: 'restore' | 'delete';
  changedOutside: boolean;
}

export interface UndoResult {
  restored: string[];
  deleted: string[];
  skipped: string[];
}

export class CheckpointStore {
  private readonly blobs: CheckpointBlobs;

  /** `queue` is shared with the turns' checkpoints: an undo must not race any write. */
  constructor(dataDir: string, private readonly queue: SerialQueue) {
    this.blobs = new CheckpointBlobs(dataDir);
  }

  /** Saves the file's content before `stepId` changes it, once per plan and once per step. */
  capture(root: string | null, sessionId: string, planId: string, stepId: number, relPath: string): Promise<void> {
    return this.queue.run(async () => {
      const target = resolveIn(root, relPath);
      if (!target) return;
      const manifest = await this.load(sessionId, planId);
      const entry = manifest.files[target.rel];
      if (entry && String(stepId) in entry.steps) return;
      const snapshot = await this.blobs.snapshot(sessionId, target.abs);
      if (snapshot === 'folder') return;
      manifest.files[target.rel] = entry
        ? { ...entry, steps: { ...entry.steps, [stepId]: snapshot } }
        : { original: snapshot, steps: { [stepId]: snapshot } };
      await this.save(sessionId, manifest);
    });
  }

  /** After a successful write: remember what Waypoint left there. */
  recordWrite(root: string | null, sessionId: string, planId: string, relPath: string): Promise<void> {
    return this.queue.run(async () => {
      const target = resolveIn(root, relPath);
      if (!target) return;
      const manifest = await this.load(sessionId, planId);
      const entry = manifest.files[target.rel];
      if (!entry) return;
      entry.lastWritten = await this.blobs.currentHash(target.abs);
      await this.save(sessionId, manifest);
    });
  }

  /** Puts back every file `stepId` changed, as it was before the step; returns their paths. */
  rollbackStep(root: string | null, sessionId: string, planId: string, stepId: number): Promise<string[]> {
    return this.queue.run(async () => {
      const manifest = await this.load(sessionId, planId);
      const done: string[] = [];
      for (const [rel, entry] of Object.entries(manifest.files)) {
        if (!(String(stepId) in entry.steps)) continue;
        const target = resolveIn(root, rel);
        if (!target) continue;
        const snapshot = entry.steps[String(stepId)] ?? null;
        await this.blobs.put(sessionId, target.abs, snapshot);
        const steps = { ...entry.steps };
        delete steps[String(stepId)];
        manifest.files[rel] = { ...entry, steps, lastWritten: snapshot };
        done.push(rel);
      }
      await this.save(sessionId, manifest);
      return done;
    });
  }

  /** What "Undo plan" would do: files that differ from before the plan. */
  preview(root: string | null, sessionId: string, planId: string): Promise<UndoPreviewFile[]> {
    return this.queue.run(async () => (await this.pending(root, sessionId, planId)).map(({ file }) => file));
  }

  /** Restores every file the plan changed and removes the ones it created. */
  undo(root: string | null, sessionId: string, planId: string, overwriteChangedOutside: boolean): Promise<UndoResult> {
    return this.queue.run(async () => {
      const result: UndoResult = { restored: [], deleted: [], skipped: [] };
      const manifest = await this.load(sessionId, planId);
      for (const { file, abs, entry } of await this.pending(root, sessionId, planId)) {
        if (file.changedOutside && !overwriteChangedOutside) {
          result.skipped.push(file.path);
          continue;
        }
        await this.blobs.put(sessionId, abs, entry.original);
        (file.action === 'delete' ? result.deleted : result.restored).push(file.path);
        delete manifest.files[file.path];
      }
      await this.save(sessionId, manifest);
      return result;
    });
  }

  /** Copies a chat's checkpoints to another chat (an earlier version keeps them with its plan). */
  copyChat(fromSession: string, toSession: string): Promise<void> {
    return this.queue.run(async () => {
      const from = this.blobs.dir(fromSession);
      const exists = await fsp.stat(from).then((s) => s.isDirectory(), () => false);
      if (exists) await fsp.cp(from, this.blobs.dir(toSession), { recursive: true, errorOnExist: false, force: true });
    });
  }

  private async pending(root: string | null, sessionId: string, planId: string) {
    const manifest = await this.load(sessionId, planId);
    const out: { file: UndoPreviewFile; abs: string; entry: FileEntry }[] = [];
    for (const [rel, entry] of Object.entries(manifest.files)) {
      const target = resolveIn(root, rel);
      if (!target) continue;
      const current = await this.blobs.currentHash(target.abs);
      if (current === entry.original) continue; // already as it was
      const expected = entry.lastWritten === undefined ? entry.original : entry.lastWritten;
      out.push({
        file: { path: rel, action: entry.original === null ? 'delete' : 'restore', changedOutside: current !== expected },
        abs: target.abs,
        entry,
      });
    }
    return out.sort((a, b) => a.file.path.localeCompare(b.file.path));
  }

  private manifestPath(sessionId: string, planId: string): string {
    return path.join(this.blobs.dir(sessionId), `${safeName(planId)}.json`);
  }

  private async load(sessionId: string, planId: string): Promise<Manifest> {
    try {
      // Never a FIFO planted in the data folder: its read would hold a thread forever (regular-file.ts).
      const parsed = JSON.parse((await readRegularFile(this.manifestPath(sessionId, planId))).toString('utf8')) as Manifest;
      if (parsed && typeof parsed.files === 'object' && parsed.files) return parsed;
    } catch {
      // missing or damaged: start empty (a damaged manifest must not break the run)
    }
    return { planId, files: {} };
  }

  private async save(sessionId: string, manifest: Manifest): Promise<void> {
    const file = this.manifestPath(sessionId, manifest.planId);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify(manifest, null, 1));
  }
}

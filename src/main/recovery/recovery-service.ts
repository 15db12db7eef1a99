import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Disposable } from '../common/emitter';
import { CheckpointBlobs, SerialQueue } from './checkpoint-blobs';
import { CheckpointStore, type UndoPreviewFile, type UndoResult } from './checkpoints';
import { createRecoveryHooks, type RecoveryCore } from './recovery-run';
import type { RecoveryPlans, RecoveryRunContext, ToolRecoveryHooks } from './recovery-types';
import { TurnCheckpoints, type TurnPreview } from './turn-checkpoints';
import { FolderChanges } from './folder-changes';
import { CommandSnapshots } from './command-snapshots';

export interface RecoveryServiceOptions {
  plans: RecoveryPlans;
  dataDir: string;
  now?: () => Date;
  /** How long a command's folder snapshot may take (command-snapshots.ts; tests make it tiny). */
  commandSnapshotLimitMs?: number;
}

/**
 * Recovery and escalation (docs/contract.md §3): decides when to escalate, owns the file checkpoints and
 * the per-chat failure counts; hands each run its executor hooks.
 */
export class RecoveryService implements Disposable {
  private readonly core: RecoveryCore;
  private readonly queue = new SerialQueue();
  private readonly blobs: CheckpointBlobs;
  private changes: FolderChanges | undefined;

  constructor(private readonly options: RecoveryServiceOptions) {
    const queue = this.queue;
    this.blobs = new CheckpointBlobs(options.dataDir);
    const turns = new TurnCheckpoints(options.dataDir, queue);
    this.core = {
      plans: options.plans,
      checkpoints: new CheckpointStore(options.dataDir, queue),
      turns,
      commands: new CommandSnapshots({
        dataDir: options.dataDir,
        queue,
        capturedByFileTools: (sessionId, root, rel) => turns.hasCaptured(root, sessionId, rel),
        ...(options.commandSnapshotLimitMs ? { snapshotLimitMs: options.commandSnapshotLimitMs } : {}),
      }),
      looseFailures: new Map(),
      forgotten: new Set(),
      now: options.now ?? (() => new Date()),
    };
  }

  get plans(): RecoveryPlans {
    return this.core.plans;
  }

  hooksFor(run: RecoveryRunContext): ToolRecoveryHooks {
    return createRecoveryHooks(this.core, run);
  }

  /** A new message from the user starts the per-chat failure count afresh. */
  resetChat(sessionId: string): void {
    this.core.looseFailures.delete(sessionId);
  }

  /**
   * A deleted chat (its run stopped first): its checkpoints hold copies of the user's files, so
   * they go with it. On the checkpoint queue, after any snapshot its stopped run still had queued;
   * a call that run still finishes takes none after this (RecoveryCore.forgotten).
   */
  forgetChat(sessionId: string): Promise<void> {
    this.core.looseFailures.delete(sessionId);
    this.core.forgotten.add(sessionId);
    return this.queue.run(async () => {
      const folders = await this.core.commands.foldersOf(sessionId);
      await fsp.rm(this.blobs.dir(sessionId), { recursive: true, force: true });
      // Its sub-agents' checkpoints (keyed `<chat>~<agent>`) are the chat's too.
      const own = `${path.basename(this.blobs.dir(sessionId))}_`;
      for (const name of await this.checkpointFolders()) if (name.startsWith(own)) await fsp.rm(path.join(this.checkpointsDir, name), { recursive: true, force: true });
      // The folders' shared snapshot objects go with the last chat that used them.
      await this.core.commands.dropUnused(folders);
    });
  }

  /** `<dataDir>/checkpoints`: every chat's checkpoint blobs and command shadows, a folder each. */
  private get checkpointsDir(): string {
    return path.join(this.options.dataDir, 'checkpoints');
  }

  private checkpointFolders(): Promise<string[]> {
    return fsp.readdir(this.checkpointsDir).catch(() => [] as string[]);
  }

  /**
   * At start (docs/architecture.md "Commands in a plain folder"): the checkpoints and command
   * shadows of chats that no longer exist (a delete cut short, a chat folder removed by hand, a
   * process that died mid-delete) go, and so does every shared snapshot store no chat's shadow
   * uses any more. `isChat` names the chats that exist (any process's). On the checkpoint queue,
   * so no snapshot of this process runs meanwhile. Returns what went.
   */
  sweepOrphans(isChat: (chatId: string) => boolean): Promise<{ chats: number; stores: number }> {
    return this.queue.run(async () => {
      let chats = 0;
      for (const name of await this.checkpointFolders()) {
        // `<chat>` or a sub-agent's `<chat>_<agent>` (safeName of `<chat>~<agent>`); chat ids hold no `_`.
        const owner = name.includes('_') ? name.slice(0, name.indexOf('_')) : name;
        if (isChat(name) || isChat(owner)) continue;
        await fsp.rm(path.join(this.checkpointsDir, name), { recursive: true, force: true });
        chats += 1;
      }
      const keys = await this.core.commands.storeKeys();
      await this.core.commands.dropUnused(keys);
      const left = new Set(await this.core.commands.storeKeys());
      return { chats, stores: keys.filter((key) => !left.has(key)).length };
    });
  }

  /** What "Undo plan" would change in the chat's workspace for its latest plan. */
  async previewUndo(sessionId: string, workspace: string | null): Promise<UndoPreviewFile[]> {
    const plan = this.core.plans.getPlan(sessionId);
    return plan ? this.core.checkpoints.preview(workspace, sessionId, plan.id) : [];
  }

  async undo(sessionId: string, workspace: string | null, overwriteChangedOutside: boolean): Promise<UndoResult> {
    const plan = this.core.plans.getPlan(sessionId);
    if (!plan) return { restored: [], deleted: [], skipped: [] };
    return this.core.checkpoints.undo(workspace, sessionId, plan.id, overwriteChangedOutside);
  }

  /** What putting back the files of these turns (user message ids) would change in the chat's workspace, and the commands they ran. */
  previewTurns(sessionId: string, workspace: string | null, turns: readonly string[]): Promise<TurnPreview> {
    return this.core.turns.preview(workspace, sessionId, turns);
  }

  /** Puts back the files these turns changed (Edit message, Retry reply); files changed outside Waypoint since stay. */
  restoreTurns(sessionId: string, workspace: string | null, turns: readonly string[]): Promise<UndoResult> {
    return this.core.turns.restore(workspace, sessionId, turns, false);
  }

  /** "Changes" of a chat in a plain folder, from its turn checkpoints and its commands' snapshots (folder-changes.ts). */
  get folderChanges(): FolderChanges {
    this.changes ??= new FolderChanges(this.blobs, this.core.turns, this.core.commands);
    return this.changes;
  }

  dispose(): void {
    // Nothing waits here: a run that escalates ends, and the chat's log keeps the question (agent/pauses).
  }
}

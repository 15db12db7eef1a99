import fsp from 'node:fs/promises';
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

  constructor(options: RecoveryServiceOptions) {
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
      // The folders' shared snapshot objects go with the last chat that used them.
      await this.core.commands.dropUnused(folders);
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

import type { EscalationAnswer } from '../../shared/prompts';
import type { Disposable } from '../common/emitter';
import { CheckpointStore, type UndoPreviewFile, type UndoResult } from './checkpoints';
import { PromptGate } from '../common/prompt-gate';
import { createRecoveryHooks, type RecoveryCore } from './recovery-run';
import type { RecoveryPlans, RecoveryRunContext, ToolRecoveryHooks } from './recovery-types';

export interface RecoveryServiceOptions {
  plans: RecoveryPlans;
  dataDir: string;
  now?: () => Date;
}

/**
 * Recovery and escalation (design.md §3): owns the pending escalations, the file checkpoints and
 * the per-chat failure counts; hands each run its executor hooks.
 */
export class RecoveryService implements Disposable {
  private readonly core: RecoveryCore;

  constructor(options: RecoveryServiceOptions) {
    this.core = {
      plans: options.plans,
      gate: new PromptGate(),
      checkpoints: new CheckpointStore(options.dataDir),
      looseFailures: new Map(),
      now: options.now ?? (() => new Date()),
    };
  }

  get plans(): RecoveryPlans {
    return this.core.plans;
  }

  hooksFor(run: RecoveryRunContext): ToolRecoveryHooks {
    return createRecoveryHooks(this.core, run);
  }

  /** The user's answer to the escalation a live run waits on; false when none waits on it. */
  answer(sessionId: string, requestId: string, answer: EscalationAnswer): boolean {
    return this.core.gate.answer(sessionId, requestId, answer);
  }

  /** A new message from the user starts the per-chat failure count afresh. */
  resetChat(sessionId: string): void {
    this.core.looseFailures.delete(sessionId);
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

  /** The chat's checkpoints go with its copy ("… (earlier version)"), so Undo plan works there too. */
  copyCheckpoints(fromSession: string, toSession: string): Promise<void> {
    return this.core.checkpoints.copyChat(fromSession, toSession);
  }

  dispose(): void {
    this.core.gate.cancelAll();
  }
}

/** Test support: stand-ins for the parts a run needs that a test of another part does without. */
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { LoopRecovery, RequestAttachments } from '../../src/main/agent/ports';
import type { RecoveryPlans, ToolRecoveryHooks } from '../../src/main/recovery/recovery-types';
import type { ToolImage } from '../../src/main/tools/tool';

/**
 * No attachment store: requests go out as built (a test that sends no attachment has no
 * references to fill in), and images a tool returns are named, not sent.
 */
export const noAttachments: RequestAttachments = {
  resolve: (request: MessageCreateParamsBase) => Promise.resolve(request),
  fromTool: (_toolName: string, images: readonly ToolImage[]) =>
    Promise.resolve({ attachments: [], problems: [`[${images.length} image(s) the tool returned could not be passed on.]`] }),
};

/** Recovery's plan operations with no plan to act on. */
const noPlans: RecoveryPlans = {
  getPlan: () => null,
  currentStepId: () => null,
  recordAttempt: () => false,
  skipStep: () => false,
  restartStep: () => false,
  cancelPlan: () => false,
};

/** A tool's result goes back as it came: no checkpoint, no hint, never a halt. */
const passThrough: ToolRecoveryHooks = {
  beforeExecute: () => Promise.resolve(),
  afterExecute: ({ outcome }) => Promise.resolve({ text: outcome.ok ? outcome.content : outcome.error.message, halt: false }),
};

/**
 * No recovery policy, for tests of other parts: failures carry no hint and never escalate,
 * nothing is checkpointed, so nothing can be undone (tests of recovery pass the real
 * RecoveryService: recovery-test-setup.ts).
 */
export const noRecovery: LoopRecovery = {
  plans: noPlans,
  hooksFor: () => passThrough,
  resetChat: () => undefined,
  previewUndo: () => Promise.resolve([]),
  undo: () => Promise.resolve({ restored: [], deleted: [], skipped: [] }),
  copyCheckpoints: () => Promise.resolve(),
  previewTurns: () => Promise.resolve({ files: [], commands: 0 }),
  restoreTurns: () => Promise.resolve({ restored: [], deleted: [], skipped: [] }),
};

import { randomUUID } from 'node:crypto';
import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { PlanStep, StepAttempt } from '../../shared/plan';
import type { EscalationRequest } from '../../shared/prompts';
import type { ToolDefinition } from '../tools/tool';
import { waitUnlessStopped } from '../common/wait';
import { failuresSinceFresh, isCritical, summarizeInput } from './attempts';
import type { CheckpointStore } from './checkpoints';
import type { TurnCheckpoints } from './turn-checkpoints';
import type { CommandSnapshots } from './command-snapshots';
import { classifyToolFailure } from './classify';
import { decideRecovery, type RecoveryDecision } from './policy';
import type { CheckpointContext, FileCheckpointHooks, RecoveredResult, RecoveryPlans, RecoveryRunContext, ToolCallFacts, ToolRecoveryHooks } from './recovery-types';

/** What the hooks share across runs (RecoveryService owns it). */
export interface RecoveryCore {
  plans: RecoveryPlans;
  checkpoints: CheckpointStore;
  turns: TurnCheckpoints;
  /** What commands change in a plain folder (Changes lists it). */
  commands: CommandSnapshots;
  /** Consecutive failures per chat outside any plan (no step to attribute them to). */
  looseFailures: Map<string, number>;
  /** Deleted chats: a call their stopped run still finishes takes no checkpoint (it would bring back the folder deleted with them). */
  forgotten: Set<string>;
  now(): Date;
}

const FILE_CHANGERS = new Set(['write_file', 'edit_file']);

function pathOf(block: Pick<ToolUseBlock, 'input'>): string | null {
  const input = block.input as { path?: unknown } | null;
  return input && typeof input.path === 'string' && input.path.length > 0 ? input.path : null;
}

const label = (s: string): string => s.replace(/_/g, ' ');

function withHint(message: string, decision: RecoveryDecision, where: string): string {
  return `${message}\n\n[Waypoint recovery: ${label(decision.strategy)} (${where})] ${decision.hint}`;
}

/**
 * The file checkpoints around one call: every change a turn makes, inside a plan or not, can be
 * put back by editing its message (turn-checkpoints.ts); a plan's step's also by rollback and
 * "Undo plan" (checkpoints.ts). A checkpoint that cannot be taken never stops the call.
 */
function createCheckpointHooks(core: RecoveryCore, { sessionId, workspace, turn, chatId = sessionId }: CheckpointContext): FileCheckpointHooks {
  const { plans, checkpoints, turns, commands } = core;
  /** The folder's snapshot before each command still running, by its call. */
  const snapshots = new Map<string, string>();
  return {
    async before(block, tool) {
      const rel = pathOf(block);
      if (core.forgotten.has(sessionId)) return;
      try {
        if (turn && tool.name === 'run_command') await turns.recordCommand(sessionId, turn);
        if (tool.name === 'run_command' && workspace && block.id) {
          const tree = await commands.before(chatId, workspace);
          if (tree) snapshots.set(block.id, tree);
        }
        if (!FILE_CHANGERS.has(tool.name) || !rel) return;
        if (turn) await turns.capture(workspace, sessionId, turn, rel);
        const plan = plans.getPlan(sessionId);
        if (plan && plan.status === 'active') await checkpoints.capture(workspace, sessionId, plan.id, plans.currentStepId(sessionId) ?? 0, rel);
      } catch (error) {
        console.warn(`[waypoint] could not checkpoint ${rel ?? tool.name}: ${(error as Error).message}`);
      }
    },
    async after(block, tool, ok) {
      const rel = pathOf(block);
      const tree = block.id ? snapshots.get(block.id) : undefined;
      if (tree && block.id && workspace) {
        // Whatever the command's end (a failure or Stop may have changed things too).
        snapshots.delete(block.id);
        if (!core.forgotten.has(chatId)) await commands.after(chatId, workspace, tree);
      }
      if (!ok || !FILE_CHANGERS.has(tool.name) || !rel || core.forgotten.has(sessionId)) return;
      const plan = plans.getPlan(sessionId);
      if (plan) await checkpoints.recordWrite(workspace, sessionId, plan.id, rel).catch(() => undefined);
      await turns.recordWrite(workspace, sessionId, rel).catch(() => undefined);
    },
  };
}

/**
 * The thin executor of the recovery policy for one run: checkpoints before a step changes a
 * file, and after each failed non-planning tool call records the attempt on the running step,
 * puts the strategy's hint into the tool_result, waits retryDelayMs (Stop cuts it short), or
 * ends the run on an escalation, which the user answers.
 */
export function createRecoveryHooks(core: RecoveryCore, run: RecoveryRunContext): ToolRecoveryHooks {
  const { plans, checkpoints } = core;
  const { sessionId, signal, settings, workspace } = run;
  const files = createCheckpointHooks(core, run);

  const activeStep = (): { planId: string; step: PlanStep } | null => {
    const plan = plans.getPlan(sessionId);
    const stepId = plans.currentStepId(sessionId);
    const step = plan?.steps.find((s) => s.id === stepId);
    return plan && step ? { planId: plan.id, step } : null;
  };

  const escalate = (facts: ToolCallFacts, step: PlanStep, message: string, errorClass: StepAttempt['errorClass']): RecoveredResult => {
    const fresh = plans.getPlan(sessionId)?.steps.find((s) => s.id === step.id) ?? step;
    const escalation: EscalationRequest = {
      id: randomUUID(),
      sessionId,
      stepId: step.id,
      stepTitle: step.title,
      toolName: facts.tool.name,
      toolUseId: facts.block.id,
      error: message,
      errorClass,
      attempts: fresh.attempts,
      createdAt: core.now().toISOString(),
    };
    // The run ends here and the chat awaits the user's decision; the one answer path applies it
    // to the plan (the loop's escalation kind) and words this call's result.
    return { text: message, halt: false, escalation };
  };

  return {
    beforeExecute: (block: ToolUseBlock, tool: ToolDefinition) => files.before(block, tool),

    async afterExecute(facts: ToolCallFacts): Promise<RecoveredResult> {
      const { tool, outcome, block } = facts;
      if (outcome.ok || tool.group === 'planning' || signal.aborted) {
        if (outcome.ok && tool.group !== 'planning') core.looseFailures.delete(sessionId);
        await files.after(block, tool, outcome.ok);
        return { text: outcome.ok ? outcome.content : outcome.error.message, halt: false };
      }
      // A failed command: what it changed before failing is still the chat's.
      await files.after(block, tool, false);
      const message = outcome.error.message;
      const errorClass = classifyToolFailure({ toolName: tool.name, group: tool.group, error: outcome.error });
      const current = activeStep();

      if (!current) {
        // No plan step to attribute it to: count it per chat and still hand Claude the hint.
        const count = (core.looseFailures.get(sessionId) ?? 0) + 1;
        core.looseFailures.set(sessionId, count);
        const decision = decideRecovery({ errorClass, toolName: tool.name, message, failureCount: count, settings, critical: false, inPlan: false });
        if (decision.strategy !== 'escalate_to_user') await waitUnlessStopped(decision.delayMs, signal);
        return { text: withHint(message, decision, `${label(errorClass)}; failure ${count} in a row in this chat`), halt: false };
      }

      const { step, planId } = current;
      const failureCount = failuresSinceFresh(step.attempts) + 1;
      const decision = decideRecovery({ errorClass, toolName: tool.name, message, failureCount, settings, critical: isCritical(step), inPlan: true });
      const record = (outcomeOf: StepAttempt['outcome']) =>
        plans.recordAttempt(sessionId, step.id, {
          at: core.now().toISOString(),
          tool: tool.name,
          inputSummary: summarizeInput(block.input),
          error: message.slice(0, 2000),
          errorClass,
          strategy: decision.strategy,
          outcome: outcomeOf,
          durationMs: facts.durationMs,
        });
      const where = `${label(errorClass)}; step ${step.id} failure ${failureCount}; Waypoint asks the user after ${settings.maxRetries + 1}`;

      switch (decision.strategy) {
        case 'escalate_to_user':
          record('escalated');
          return escalate(facts, step, message, errorClass);
        case 'skip_and_continue':
          record('skipped');
          plans.skipStep(sessionId, step.id, `Skipped automatically (${decision.reason}): ${message}`.slice(0, 1000), { kind: 'recovery', by: 'claude' });
          return { text: withHint(message, decision, where), halt: false };
        case 'rollback_and_retry': {
          const restored = await checkpoints.rollbackStep(workspace, sessionId, planId, step.id).catch(() => [] as string[]);
          record('retrying');
          await waitUnlessStopped(decision.delayMs, signal);
          const files = restored.length ? ` Restored: ${restored.join(', ')}.` : ' (No files had been changed by this step.)';
          return { text: `${withHint(message, decision, where)}${files}`, halt: false };
        }
        default:
          record('retrying');
          await waitUnlessStopped(decision.delayMs, signal);
          return { text: withHint(message, decision, where), halt: false };
      }
    },
  };
}

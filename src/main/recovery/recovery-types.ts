import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { Plan, StepAttempt } from '../../shared/plan';
import type { PlanCause } from '../../shared/plan-change';
import type { EscalationAnswer, EscalationRequest } from '../../shared/prompts';
import type { Settings } from '../../shared/settings';
import type { ToolDefinition, ToolOutcome } from '../tools/tool';

/** How a pending escalation ended: the user's answer, or 'cancelled' (Stop, shutdown). */
export type EscalationOutcome = EscalationAnswer | { kind: 'cancelled' };

/** The plan operations recovery needs (PlanService provides them). */
export interface RecoveryPlans {
  getPlan(sessionId: string): Plan | null;
  currentStepId(sessionId: string): number | null;
  recordAttempt(sessionId: string, stepId: number, attempt: StepAttempt): boolean;
  skipStep(sessionId: string, stepId: number, reason: string, cause: PlanCause): boolean;
  restartStep(sessionId: string, stepId: number): boolean;
  cancelPlan(sessionId: string, reason: string): boolean;
}

/** One run's view: which chat, its Stop, the settings of this turn and its folder. */
export interface RecoveryRunContext {
  sessionId: string;
  signal: AbortSignal;
  settings: Settings;
  /** The chat's workspace folder: checkpoints resolve paths in it as the file tools do. */
  workspace: string | null;
}

export interface ToolCallFacts {
  block: ToolUseBlock;
  tool: ToolDefinition;
  outcome: ToolOutcome;
  durationMs: number;
}

/**
 * What goes back to Claude for one tool call, and whether the run must end after it (plan
 * aborted). With `escalation` the call has no result yet: the run ends there, the chat awaiting
 * the user's decision, which words the result (escalation-answer.ts).
 */
export interface RecoveredResult {
  text: string;
  halt: boolean;
  escalation?: EscalationRequest;
}

/** The executor's two hooks (tool-executor.ts calls them around every tool it runs). */
export interface ToolRecoveryHooks {
  /** Right before the tool runs (after approval): checkpoint the file a step is about to change. */
  beforeExecute(block: ToolUseBlock, tool: ToolDefinition): Promise<void>;
  /** After it ran: the tool_result text (failures carry the strategy's hint) and whether to halt. */
  afterExecute(facts: ToolCallFacts): Promise<RecoveredResult>;
}

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
  /** The user message whose turn this run answers (its id): file changes are checkpointed per turn, so Edit message can put them back. */
  turn: string | null;
  /** The chat whose Changes list what this run's commands change (a sub-agent's run: its parent chat); default sessionId. */
  chatId?: string;
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

/** What a checkpoint reads of a call: its input (the path it names), and its id (a command's snapshots pair up by it). */
type CallInput = Pick<ToolUseBlock, 'input'> & { id?: string };

/** The file checkpoints around one tool call (the recovery hooks take them before and after every call the executor runs). */
export interface FileCheckpointHooks {
  /** Before it runs: saves the file a write_file or edit_file is about to change, counts a run_command. */
  before(block: CallInput, tool: ToolDefinition): Promise<void>;
  /** After it ran: remembers what a successful write left. */
  after(block: CallInput, tool: ToolDefinition, ok: boolean): Promise<void>;
}

/** Which chat, folder and turn a call's checkpoints belong to. */
export interface CheckpointContext {
  sessionId: string;
  /** The chat whose Changes list what commands change (RecoveryRunContext.chatId). */
  chatId?: string;
  workspace: string | null;
  /** The id of the user message the turn answers (turn-checkpoints.ts). */
  turn: string | null;
}

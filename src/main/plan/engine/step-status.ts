import type { Plan, PlanStep, StepStatus } from '../../../shared/plan';
import { type EngineOptions, MAX_TEXT_LENGTH, type OpResult, rejected, unchanged } from './engine-types';
import { isOpen } from './seal';
import { sealStepChange } from './seal-step';
import { closedError, findStep } from './step-lookup';
import { verificationError } from './step-calls';
import { cleanText, cleanTitle } from './titles';
import { userSkipError } from './user-marks';

export interface StepEdit {
  stepId: number;
  title?: string;
  status?: StepStatus;
  result?: string;
  reason?: string;
  /**
   * strict: a completed or skipped step is final (structured dialect, recovery). free: any
   * status may follow any other (the session dialect's planning_update_step).
   */
  mode?: 'strict' | 'free';
}

const VERB: Record<StepStatus, string> = {
  pending: 'reset to pending',
  in_progress: 'started',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

/** Changes one step's title and/or status (with the result or reason that explains it) as one version. */
export function editStep(plan: Plan, edit: StepEdit, options: EngineOptions): OpResult {
  if (!isOpen(plan)) return rejected(closedError(plan));
  const found = findStep(plan, edit.stepId);
  if (!found.ok) return rejected(found.error);
  const { step, index } = found;
  let title = step.title;
  if (edit.title !== undefined) {
    const cleaned = cleanTitle(edit.title, `Step ${step.id}'s new title`);
    if (!cleaned.ok) return rejected(cleaned.error);
    title = cleaned.value;
  }
  const status = edit.status ?? step.status;
  const statusChanged = status !== step.status;
  if (!statusChanged && title === step.title) return unchanged(plan);
  const skipped = statusChanged ? userSkipError(plan, step) : null;
  if (skipped) return rejected(skipped);
  if (statusChanged && (edit.mode ?? 'strict') === 'strict' && (step.status === 'completed' || step.status === 'skipped')) {
    return rejected(`Step ${step.id} is already ${step.status}, which is final. Work on a pending step, or add a new step for more work.`);
  }
  const unverified = statusChanged && status === 'completed' ? verificationError(step) : null;
  if (unverified) return rejected(unverified);
  const result = cleanText(edit.result, MAX_TEXT_LENGTH) ?? step.result;
  const reason = cleanText(edit.reason, MAX_TEXT_LENGTH) ?? step.reason;
  const attempts = status === 'completed' ? settleAttempts(step.attempts) : step.attempts;
  const next = { ...step, title, status, attempts, ...(result ? { result } : {}), ...(reason ? { reason } : {}) };
  const what = [title !== step.title ? 'renamed' : '', statusChanged ? VERB[status] : ''].filter(Boolean).join(' and ');
  return sealStepChange(plan, index, next, options, `Updated plan: step ${step.id} ${what}`);
}

/** Moves one step to a new status; a no-op (same status) succeeds without a new version. */
export function setStepStatus(plan: Plan, change: StepEdit & { status: StepStatus }, options: EngineOptions): OpResult {
  return editStep(plan, { ...change, title: undefined }, options);
}

/** A step that completes after failed attempts: its last retry is the one that worked. */
function settleAttempts(attempts: PlanStep['attempts']): PlanStep['attempts'] {
  const last = attempts.at(-1);
  if (last?.outcome !== 'retrying') return attempts;
  return [...attempts.slice(0, -1), { ...last, outcome: 'succeeded' }];
}

import type { EscalationRequest } from '../../shared/prompts';
import type { EscalationOutcome, RecoveredResult, RecoveryPlans } from './recovery-types';

export const STOPPED_WHILE_ASKING = 'The user pressed Stop while Waypoint was asking them how to handle this failure.';
export const ABORTED_RESULT = 'Not run: the user aborted the plan.';

export interface AppliedAnswer extends RecoveredResult {
  /** A line for the transcript saying what the user decided. */
  note: string | null;
}

const stepName = (request: EscalationRequest): string =>
  request.stepId === null ? 'this task' : `step ${request.stepId} ("${request.stepTitle}")`;

/**
 * Carries out the user's answer to an escalation on the plan, and words the tool_result that
 * tells Claude (docs/contract.md §3): skip → the step is skipped and the run goes on; abort → the plan
 * is cancelled and the run halts; guidance → the text reaches Claude and the step runs again
 * with a fresh retry count. The run that escalated has ended (the chat awaits the answer, logged,
 * so it outlives a restart); the answer's one path applies this and runs on (agent/pauses/escalation-kind.ts).
 */
export function applyEscalationAnswer(plans: RecoveryPlans, request: EscalationRequest, outcome: EscalationOutcome): AppliedAnswer {
  const { sessionId, stepId } = request;
  const failed = `${request.error}\n\n`;
  const tries = `${request.attempts.length} failed attempt${request.attempts.length === 1 ? '' : 's'}`;
  switch (outcome.kind) {
    case 'cancelled':
      return { text: `${failed}${STOPPED_WHILE_ASKING}`, halt: false, note: null };
    case 'skip': {
      const reason = `Skipped by the user after ${tries}: ${request.error}`.slice(0, 1000);
      if (stepId !== null) plans.skipStep(sessionId, stepId, reason, { kind: 'escalation', by: 'user', answer: 'skip' });
      return {
        text: `${failed}The user chose to skip ${stepName(request)} after ${tries}; it is now marked skipped. Do not retry it: continue with the next step of the plan.`,
        halt: false,
        note: `You skipped ${stepName(request)}.`,
      };
    }
    case 'abort':
      plans.cancelPlan(sessionId, `Aborted by the user after ${tries} on step ${stepId ?? '?'}.`);
      return {
        text: `${failed}The user aborted the plan after ${stepName(request)} kept failing. The plan is cancelled: do not continue it; wait for the user's next message.`,
        halt: true,
        note: 'You aborted the plan. Claude stops here until you write again.',
      };
    case 'guidance': {
      if (stepId !== null) plans.restartStep(sessionId, stepId);
      return {
        text: `${failed}The user was asked how to proceed with ${stepName(request)} and answered:\n"""\n${outcome.text.trim()}\n"""\nRetry ${stepId === null ? 'the task' : `step ${stepId}`} following this guidance. Its retry count starts afresh.`,
        halt: false,
        note: `Your guidance for ${stepName(request)}: ${outcome.text.trim()}`,
      };
    }
  }
}

import type { ApprovalDecision, ApprovalRequest, EscalationAnswer, EscalationRequest, QuestionRequest } from '../../../shared/prompts';
import type { RecoveryPlans } from '../../recovery/recovery-types';
import { approvalKind, type ApprovalKindDeps } from './approval-kind';
import { escalationKind } from './escalation-kind';
import type { PauseKind } from './pause-kind';
import { questionKind } from './question-kind';

/** The kinds of question a run pauses on, each a schema and a handler (pause-kind.ts). */
export interface PauseKinds {
  approval: PauseKind<ApprovalRequest, ApprovalDecision>;
  escalation: PauseKind<EscalationRequest, EscalationAnswer>;
  question: PauseKind<QuestionRequest, string>;
}

export function pauseKinds(deps: ApprovalKindDeps & { plans: RecoveryPlans | null }): PauseKinds {
  return { approval: approvalKind(deps), escalation: escalationKind(deps.plans), question: questionKind() };
}

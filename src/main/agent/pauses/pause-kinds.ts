import type { ApprovalDecision, ApprovalRequest, EscalationAnswer, EscalationRequest, QuestionRequest } from '../../../shared/prompts';
import type { RetryAnswer } from '../../../shared/retry-now';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import type { RecoveryPlans } from '../../recovery/recovery-types';
import { approvalKind, type ApprovalKindDeps } from './approval-kind';
import { escalationKind } from './escalation-kind';
import type { PauseKind } from './pause-kind';
import { planProposalKind, type PlanProposalAnswer, type PlanProposalRequest } from './plan-proposal-kind';
import { questionKind } from './question-kind';
import { retryKind, type RetryRequest } from './retry-kind';
import { budgetKind, type BudgetRequest } from './budget-kind';
import type { BudgetAnswer } from '../../../shared/budget';

/** The kinds of question a run pauses on, each a schema and a handler (pause-kind.ts). */
export interface PauseKinds {
  approval: PauseKind<ApprovalRequest, ApprovalDecision>;
  escalation: PauseKind<EscalationRequest, EscalationAnswer>;
  question: PauseKind<QuestionRequest, string>;
  /** Plan first: the user's review of a proposed plan. */
  plan: PauseKind<PlanProposalRequest, PlanProposalAnswer>;
  /** "Retry now" after the API retries ran out. */
  retry: PauseKind<RetryRequest, RetryAnswer>;
  /** "Budget reached": the plan's run stopped at its budget. */
  budget: PauseKind<BudgetRequest, BudgetAnswer>;
}

export function pauseKinds(deps: ApprovalKindDeps & { plans: RecoveryPlans | null; proposals: Pick<PlanServiceApi, 'getPlan' | 'reviewPlan' | 'answerBudget'> }): PauseKinds {
  return {
    approval: approvalKind(deps),
    escalation: escalationKind(deps.plans),
    question: questionKind(),
    plan: planProposalKind(deps.proposals),
    retry: retryKind(),
    budget: budgetKind(deps.proposals),
  };
}

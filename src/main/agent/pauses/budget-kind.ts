import { BudgetAnswer, type BudgetReached } from '../../../shared/budget';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import { planSpend } from '../model/usage-meter';
import type { PauseKind, PauseRequest } from './pause-kind';

/** "Budget reached": the plan's stop (its id is the request's), and what it would pass. */
export interface BudgetRequest extends PauseRequest {
  planId: string;
  reached: BudgetReached;
}

/**
 * The plan's budget stopped its run before a request (agent/plan-hooks/budget-gate.ts). As with a
 * proposal, the plan in its log is the awaiting state (`budget.reached`). "Extend budget" raises
 * the limit and a new run goes on from the chat's state (the request not sent is built again);
 * "End plan" closes the plan as partial and nothing runs. No tool call is held back.
 */
export function budgetKind(plans: Pick<PlanServiceApi, 'getPlan' | 'answerBudget'>): PauseKind<BudgetRequest, BudgetAnswer> {
  return {
    answer: BudgetAnswer,
    pending(session) {
      const plan = plans.getPlan(session.summary.id);
      const reached = plan?.status === 'active' ? plan.budget?.reached : undefined;
      return plan && reached ? { id: reached.id, sessionId: session.summary.id, planId: plan.id, reached } : null;
    },
    problem(request, answer) {
      if (answer.kind !== 'extend' || answer.usd === undefined) return null;
      // A figure at or below the spend would stop the very next request again.
      return answer.usd > request.reached.spentUsd ? null : `The new budget must be more than the $${request.reached.spentUsd.toFixed(2)} this plan has spent.`;
    },
    needsOpenCall: false,
    continues: (answer) => answer.kind === 'extend',
    answered({ session }, request, answer) {
      const result = plans.answerBudget(session.summary.id, answer, planSpend(session.summary, request.planId));
      return { kind: 'none', halt: !result.ok || answer.kind === 'end' };
    },
    // Stop has nothing to close: no run waits on the budget (its run ended when it stopped).
    cancelled: () => ({ kind: 'none', halt: true }),
  };
}

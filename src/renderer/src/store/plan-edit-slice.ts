import type { BudgetAnswer } from '../../../shared/budget';
import type { UserEdit } from '../../../shared/plan-edit';
import type { ReviewDecision } from '../../../shared/plan-review';
import { failed, OK } from './errors';
import type { ActionResult, SliceCreator } from './types';

/**
 * The user's hand on the plan (docs/contract.md §5): edits of the plan in the panel and the answer to a
 * proposal (plan first). Each names the plan and version on screen, so main can tell a stale
 * click; the change itself arrives as plan_updated, like Claude's. A refusal is kept per chat
 * for the panel to show.
 */
export interface PlanEditSlice {
  /** The last refused edit or review per chat, shown in the panel until the next success or dismissal. */
  planRefusals: Record<string, string | null>;
  /**
   * `seen`: the plan and version the user based the edit on (a rename names the version shown
   * when its box opened), so an edit another tab made meanwhile is not silently overwritten.
   */
  editPlan(sessionId: string, edit: UserEdit, seen?: PlanSeen): Promise<ActionResult>;
  reviewPlan(sessionId: string, decision: ReviewDecision): Promise<ActionResult>;
  dismissPlanRefusal(sessionId: string): void;
  /** "Save budget": the plan's budget in dollars (a refusal is kept like an edit's). */
  setPlanBudget(sessionId: string, planId: string, usd: number): Promise<ActionResult>;
  /** "Extend budget" / "End plan" on "Budget reached". */
  answerBudget(sessionId: string, requestId: string, answer: BudgetAnswer): Promise<ActionResult>;
}

/** A plan as the user saw it. */
export interface PlanSeen {
  planId: string;
  version: number;
}

export const createPlanEditSlice: SliceCreator<PlanEditSlice> = (set, get, api) => {
  const settle = async (sessionId: string, call: (planId: string, version: number) => Promise<unknown>, seen?: PlanSeen): Promise<ActionResult> => {
    const plan = get().plans[sessionId];
    if (!plan) return { ok: false, message: 'There is no plan in this chat.' };
    try {
      await call(seen?.planId ?? plan.id, seen?.version ?? plan.version);
      get().dismissPlanRefusal(sessionId);
      return OK;
    } catch (error) {
      const result = failed(error);
      if (!result.ok) set((state) => ({ planRefusals: { ...state.planRefusals, [sessionId]: result.message } }));
      return result;
    }
  };
  return {
    planRefusals: {},
    editPlan: (sessionId, edit, seen) => settle(sessionId, (planId, version) => api.call('editPlan', { sessionId, planId, version, edit }), seen),
    reviewPlan: (sessionId, decision) => settle(sessionId, (planId, version) => api.call('reviewPlan', { sessionId, planId, version, decision })),
    // The plan shown names itself: a budget for a plan since replaced is refused by main, in words the control shows.
    setPlanBudget: async (sessionId, planId, usd) => {
      try {
        await api.call('setPlanBudget', { sessionId, planId, usd });
        return OK;
      } catch (error) {
        return failed(error);
      }
    },
    answerBudget: async (sessionId, requestId, answer) => {
      try {
        const { accepted } = await api.call('answerBudget', { sessionId, requestId, answer });
        return accepted ? OK : { ok: false, message: 'This budget stop was already answered.' };
      } catch (error) {
        return failed(error);
      }
    },
    dismissPlanRefusal(sessionId) {
      if (get().planRefusals[sessionId]) set((state) => ({ planRefusals: { ...state.planRefusals, [sessionId]: null } }));
    },
  };
};

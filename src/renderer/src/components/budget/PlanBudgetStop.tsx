import { budgetPromptOf } from '../../../../shared/budget';
import type { Plan } from '../../../../shared/plan';
import { useWaypoint } from '../../store/store-context';
import { BudgetReachedPrompt } from './BudgetReachedPrompt';

/** The chat's own "Budget reached", in the "Task plan" region while the plan awaits the answer. */
export function PlanBudgetStop({ plan, sessionId }: { plan: Plan; sessionId: string }) {
  const answerBudget = useWaypoint((s) => s.answerBudget);
  const request = budgetPromptOf(sessionId, plan);
  if (!request) return null;
  return <BudgetReachedPrompt request={request} onAnswer={(answer) => answerBudget(sessionId, request.requestId, answer)} />;
}

/** The same "Budget reached" fed by the chat's id alone: the "Needs you" dialog's entry (inbox-prompts.ts). */
export function ChatBudgetStop({ sessionId }: { sessionId: string }) {
  const plan = useWaypoint((s) => s.plans[sessionId]);
  return plan ? <PlanBudgetStop plan={plan} sessionId={sessionId} /> : null;
}

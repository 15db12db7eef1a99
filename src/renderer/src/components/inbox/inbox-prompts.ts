import type { ComponentType } from 'react';
import { budgetAskedText, budgetPromptOf } from '../../../../shared/budget';
import { isAwaitingApproval } from '../../../../shared/plan';
import { askedBy } from '../../../../shared/prompts';
import type { WaypointState } from '../../store/types';
import { PendingApproval } from '../approval/PendingApproval';
import { ChatBudgetStop } from '../budget/PlanBudgetStop';
import { PendingEscalation } from '../escalation/PendingEscalation';
import { PendingQuestion } from '../question/PendingQuestion';
import { ProposedPlan } from './ProposedPlan';

/**
 * One kind of question a chat can wait on, as the "Needs you" dialog shows it: what is asked, in
 * words, and the chat's own prompt component, so the answer buttons there are the chat's (same
 * names, same path to main). A new kind of pause shows up in the dialog by an entry here.
 */
export interface InboxPrompt {
  /** The store fields `asked` reads: the list is recomputed only when one of them changes. */
  reads: ReadonlyArray<keyof WaypointState>;
  /** What is asked, in words, while the chat waits on this kind; null while it does not. */
  asked(state: WaypointState, sessionId: string): string | null;
  /** The chat's prompt for it, fed by that chat's pending request in the store. */
  Prompt: ComponentType<{ sessionId: string }>;
}

export const INBOX_PROMPTS: Readonly<Record<string, InboxPrompt>> = {
  approval: {
    reads: ['approvals'],
    asked: (state, id) => {
      const approval = state.approvals[id];
      return approval ? askedBy(approval, `Approve: ${approval.summary}`) : null;
    },
    Prompt: PendingApproval,
  },
  escalation: {
    reads: ['escalations'],
    asked: (state, id) => {
      const escalation = state.escalations[id];
      return escalation ? askedBy(escalation, `Stuck step: ${escalation.stepTitle}`) : null;
    },
    Prompt: PendingEscalation,
  },
  question: {
    reads: ['questions'],
    asked: (state, id) => {
      const question = state.questions[id];
      return question ? askedBy(question, `Claude asks: ${question.question}`) : null;
    },
    Prompt: PendingQuestion,
  },
  plan: {
    reads: ['plans'],
    asked: (state, id) => {
      const plan = state.plans[id];
      return isAwaitingApproval(plan) ? `Approve the plan: ${plan.goal}` : null;
    },
    Prompt: ProposedPlan,
  },
  budget: {
    reads: ['plans'],
    asked: (state, id) => {
      const prompt = budgetPromptOf(id, state.plans[id]);
      return prompt ? budgetAskedText(prompt) : null;
    },
    Prompt: ChatBudgetStop,
  },
};

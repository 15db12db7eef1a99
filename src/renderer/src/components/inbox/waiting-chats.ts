import { chatRun } from '../../../../shared/chat-run';
import { isAwaitingApproval } from '../../../../shared/plan';
import { isAsking } from '../../store/chat-asking';
import type { WaypointState } from '../../store/types';

/** A chat waiting for a person, as the "Needs you" dialog lists it. */
export interface WaitingChat {
  id: string;
  title: string;
  /** What is asked, in words: the approval, the stuck step, Claude's question, the plan to approve. */
  asked: string;
}

/** What the chat asks, from the question (or the proposed plan) the store holds for it (the list's stamp alone says only that it waits). */
function askedIn(state: WaypointState, id: string): string {
  const approval = state.approvals[id];
  if (approval) return `Approve: ${approval.summary}`;
  const escalation = state.escalations[id];
  if (escalation) return `Stuck step: ${escalation.stepTitle}`;
  const question = state.questions[id];
  if (question) return `Claude asks: ${question.question}`;
  const plan = state.plans[id];
  if (isAwaitingApproval(plan)) return `Approve the plan: ${plan.goal}`;
  return 'Waiting for your answer';
}

/** The chats waiting for a person, in list order (shared/chat-run.ts says which). */
export function waitingChats(state: WaypointState): WaitingChat[] {
  return state.sessions
    .filter((s) => chatRun(s, state.runStates[s.id], isAsking(state, s.id)) === 'needs-you')
    .map((s) => ({ id: s.id, title: s.title, asked: askedIn(state, s.id) }));
}

/** How many chats wait for a person: the header button's number. */
export function waitingCount(state: WaypointState): number {
  return waitingChats(state).length;
}

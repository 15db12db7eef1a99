import { budgetPromptOf } from '../../../shared/budget';
import { isAwaitingApproval } from '../../../shared/plan';
import type { WaypointState } from './types';

/**
 * Whether the chat asks the person something now, from what the store holds of it: a pending
 * approval, a stuck step, Claude's question, a plan proposed and not approved yet (Plan first), or
 * a plan stopped at its budget.
 * The sidebar row and "Needs you (N)" both count by it, so they never disagree.
 */
export function isAsking(state: WaypointState, sessionId: string): boolean {
  const plan = state.plans[sessionId];
  // A plan stopped at its budget asks "Extend budget" or "End plan" (shared/budget.ts).
  return !!(state.approvals[sessionId] || state.escalations[sessionId] || state.questions[sessionId]) || isAwaitingApproval(plan) || budgetPromptOf(sessionId, plan) !== null;
}

/**
 * Whether the question the chat is asking now (an approval, a stuck step, Claude's question) is
 * this sub-agent's: it then waits for the person, and says so where it shows.
 */
export function isAskingFor(state: WaypointState, sessionId: string, agentId: string): boolean {
  return [state.approvals[sessionId], state.escalations[sessionId], state.questions[sessionId]].some((request) => request?.agent?.id === agentId);
}

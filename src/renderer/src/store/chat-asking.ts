import { budgetPromptOf } from '../../../shared/budget';
import { isAwaitingApproval } from '../../../shared/plan';
import type { SubAgent } from '../../../shared/subagents';
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
 * Whether this sub-agent waits for the person: the question the chat is asking now (an approval,
 * a stuck step, Claude's question) is its, or its own question is in line behind another
 * sub-agent's (its snapshot says so: the chat shows one question at a time). It says so where it shows.
 */
export function isAskingFor(state: WaypointState, sessionId: string, agent: SubAgent): boolean {
  return agent.asking === true || [state.approvals[sessionId], state.escalations[sessionId], state.questions[sessionId]].some((request) => request?.agent?.id === agent.id);
}

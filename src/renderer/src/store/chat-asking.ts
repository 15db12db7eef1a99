import { isAwaitingApproval } from '../../../shared/plan';
import type { WaypointState } from './types';

/**
 * Whether the chat asks the person something now, from what the store holds of it: a pending
 * approval, a stuck step, Claude's question, or a plan proposed and not approved yet (Plan first).
 * The sidebar row and "Needs you (N)" both count by it, so they never disagree.
 */
export function isAsking(state: WaypointState, sessionId: string): boolean {
  return !!(state.approvals[sessionId] || state.escalations[sessionId] || state.questions[sessionId]) || isAwaitingApproval(state.plans[sessionId]);
}

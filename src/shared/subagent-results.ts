import type { Plan } from './plan';
import { planStateText } from './subagents';

/**
 * The words a delegate call's tool_result starts with when its sub-agent did not finish on its
 * own (agent/loop/sub-agents.ts, and store/restore-chat.ts after a crash): Claude reads them.
 */

export function stoppedResult(plan: Plan | null): string {
  return `Stopped: the user stopped this sub-agent before it finished. ${planStateText(plan)}`;
}

export function interruptedResult(plan: Plan | null): string {
  return `Interrupted: Waypoint was closed while this sub-agent was working; it will not run again by itself. ${planStateText(plan)}`;
}

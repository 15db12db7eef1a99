import type { WaypointEvent } from './contract';
import type { AgentTag } from './subagents';

/**
 * An event of a sub-agent's own run (its replies, tool calls, plan changes), with the chat it
 * works in: these stay out of the chat's transcript and log, which keep the sub-agent's snapshot
 * (`subagent_updated`); headless `--json` prints them with the tag.
 */
export interface AgentEvent {
  chatId: string;
  agent: AgentTag;
  event: WaypointEvent;
}

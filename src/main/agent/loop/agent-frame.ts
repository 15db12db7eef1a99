import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ToolDefinition } from '../../tools/tool';
import type { SessionSummary } from '../../../shared/transcript';
import type { WaitingParent } from '../../../shared/subagents';

/** Who a run is, when it is a sub-agent's (sub-agents.ts): the chat's own run has none. */
export interface AgentFrame {
  /** The chat the whole tree works in: its workspace, approval rules and plan-first state. */
  chatId: string;
  /** The chat's summary now: its plan's spend, which a sub-agent's requests count against (budget-gate.ts). */
  chatSummary(): SessionSummary;
  id: string;
  title: string;
  depth: number;
  /** Given only the tools that read, and so are its own sub-agents. */
  readOnly: boolean;
  /** Gives back its slot of "Sub-agents at once" while it waits for its own sub-agents, and takes one again after. */
  waitFor<T>(work: Promise<T>): Promise<T>;
  /**
   * This sub-agent and those above it (nearest first) as they wait on `call`, the delegate call
   * of one of its own sub-agents that waits for the user: what the log keeps to run them on
   * after a restart (sub-agent-pauses.ts).
   */
  waitingOn(call: string): WaitingParent[];
  /**
   * A call of its run ended: kept (with its result) while its reply's calls are open, so a child
   * waiting for the user meanwhile has it logged with this one's history (`WaitingParent.finished`).
   */
  callEnded(result: ToolResultBlockParam): void;
}

/**
 * The chat's sub-agents as a run sees them (SubAgentHost, sub-agents.ts): the delegate tool of
 * this run, whose calls start sub-agents of it. Declared here so the loop need not import them.
 */
export interface SubAgentPort<Run> {
  delegateFor(run: Run): ToolDefinition;
  /**
   * A call of the chat's own run ended (a sub-agent's go to its frame's `callEnded`): kept while
   * its reply is open, so a sub-agent of that reply waiting for the user has it logged too.
   */
  chatCallEnded(result: ToolResultBlockParam): void;
}

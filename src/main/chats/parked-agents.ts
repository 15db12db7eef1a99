import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { SubAgent, SubAgentWaiting } from '../../shared/subagents';
import type { ToolCallItem } from '../../shared/transcript';
import { unansweredToolUses } from './api-history';

/**
 * A sub-agent waiting for the user when the app stopped, and the sub-agents above it, as the
 * chat's log kept them (`subagent_waiting`, docs/architecture.md "Sub-agents after a restart").
 */

/** One sub-agent of the chain: its snapshot and what runs it on from where it stopped. */
export interface ParkedLevel {
  agent: SubAgent;
  readOnly: boolean;
  /** The call it waited on, in its own transcript: the held call, or (above) its delegate call. */
  card?: ToolCallItem;
  history: MessageParam[];
  /** Above the waiting one: the results of its reply's other calls that had ended (WaitingParent.finished). */
  finished?: ToolResultBlockParam[];
}

/** What the chain is read from: a chat's session, live or being restored. */
interface ParkedSource {
  readonly history: readonly MessageParam[];
  readonly subagents: ReadonlyMap<string, SubAgent>;
  readonly waitingAgents: ReadonlyMap<string, SubAgentWaiting>;
}

/**
 * The chain from the chat's own sub-agent (first) down to the one waiting on this request (last),
 * or null when it cannot be run on: every one of them still working, each delegate call that
 * started the one below still open in the history above (the chat's, for the first), and the
 * waiting one parked on this very request. A deeper sub-agent whose log predates the kept
 * parents (an older version) has none and so is not resumable: it is interrupted instead.
 */
export function parkedChain(source: ParkedSource, request: { id: string; agent?: { id: string } | undefined }): ParkedLevel[] | null {
  const agent = request.agent ? source.subagents.get(request.agent.id) : undefined;
  const waiting = agent && source.waitingAgents.get(agent.id);
  if (!agent || !waiting || waiting.requestId !== request.id || agent.status !== 'working') return null;
  const levels: ParkedLevel[] = [level(agent, waiting)];
  let below = agent;
  for (const parent of waiting.parents ?? []) {
    const above = source.subagents.get(parent.agentId);
    if (!above || below.parentAgentId !== above.id || above.status !== 'working') return null;
    if (!unansweredToolUses(parent.history as MessageParam[]).includes(below.parentToolUseId)) return null;
    levels.unshift(level(above, parent));
    below = above;
  }
  if (below.parentAgentId || !unansweredToolUses(source.history).includes(below.parentToolUseId)) return null;
  return levels;
}

function level(agent: SubAgent, kept: { readOnly: boolean; card?: ToolCallItem | undefined; history: unknown[]; finished?: unknown[] | undefined }): ParkedLevel {
  return { agent, readOnly: kept.readOnly, ...(kept.card ? { card: kept.card } : {}), history: kept.history as MessageParam[], ...(kept.finished ? { finished: kept.finished as ToolResultBlockParam[] } : {}) };
}

/** The sub-agent and every one above it, itself first (Stop closes them all). */
export function withAncestors(agents: ReadonlyMap<string, SubAgent>, agent: SubAgent): SubAgent[] {
  const chain = [agent];
  for (let above = agent.parentAgentId && agents.get(agent.parentAgentId); above && !chain.includes(above); above = above.parentAgentId && agents.get(above.parentAgentId)) chain.push(above);
  return chain;
}

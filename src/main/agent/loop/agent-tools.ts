import type { Settings } from '../../../shared/settings';
import type { ToolDefinition } from '../../tools/tool';
import type { AgentFrame } from './agent-frame';

/**
 * The tools a run offers Claude. The chat's own run: all of them, and delegate in agentic mode.
 * A sub-agent: planning tools, ask_user, the workspace tools and the chat's MCP servers' tools
 * (when it is read-only, only those that read: an MCP tool reads when its server says so, its
 * `readOnlyHint`), and delegate while its depth is below Settings "Sub-agent depth". Its calls
 * go through the chat's approval rules like the chat's own.
 */
export function offeredTo(agent: AgentFrame | undefined, settings: Settings, tools: ToolDefinition[], delegate: ToolDefinition | null): ToolDefinition[] {
  if (!settings.agenticMode) return tools;
  const offered = agent ? tools.filter((t) => t.group === 'planning' || t.group === 'user' || ((t.group === 'workspace' || t.group === 'mcp') && (!agent.readOnly || t.readOnly))) : tools;
  const depth = agent?.depth ?? 0;
  return delegate && depth < settings.subAgentDepth ? [...offered, delegate] : offered;
}

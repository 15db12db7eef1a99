import type { MessageCreateParamsBase, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Dialect } from '../../shared/plan';
import type { Settings } from '../../shared/settings';
import type { PlanServiceApi } from '../plan/plan-service.types';
import { basePrompt } from './system-prompt';
import type { ToolDefinition } from './tool';
import type { ToolRegistry } from './tool-registry';

/** The tools Claude sees this turn: planning tools (agentic mode) first, then the registry's. */
export function toolsForTurn(settings: Settings, dialect: Dialect, plans: PlanServiceApi, registry: ToolRegistry): ToolDefinition[] {
  const planning = settings.agenticMode ? plans.toolsFor(dialect) : [];
  const taken = new Set(planning.map((t) => t.name));
  // A planning tool wins a name clash: the plan panel depends on it.
  return [...planning, ...registry.list().filter((t) => !taken.has(t.name))];
}

export interface RequestInput {
  settings: Settings;
  dialect: Dialect;
  plans: PlanServiceApi;
  tools: ToolDefinition[];
  workspace: string | null;
  history: MessageCreateParamsBase['messages'];
}

export function buildRequest(input: RequestInput): MessageCreateParamsBase {
  const { settings, dialect, plans, tools, workspace } = input;
  const system = settings.agenticMode ? `${basePrompt(workspace)}\n\n${plans.guidance(dialect)}` : basePrompt(workspace);
  const apiTools: Tool[] = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  return {
    model: settings.model,
    max_tokens: settings.maxTokens,
    system,
    // A copy: the SDK must not see later edits to our history mid-flight.
    messages: structuredClone(input.history),
    ...(apiTools.length ? { tools: apiTools } : {}),
  };
}

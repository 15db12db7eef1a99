import type { MessageCreateParamsBase, MessageParam, Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { Dialect } from '../../../shared/plan';
import type { Settings } from '../../../shared/settings';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import { basePrompt } from '../prompts/system-prompt';
import { createAskUserTool } from '../../tools/ask-user';
import type { ToolDefinition } from '../../tools/tool';
import type { ToolRegistry } from '../../tools/tool-registry';
import { webSearchTool } from './web-search-tool';

const askUser = createAskUserTool();

/** The tools Claude sees this turn: planning tools and ask_user (agentic mode) first, then the registry's. */
export function toolsForTurn(settings: Settings, dialect: Dialect, plans: PlanServiceApi, registry: ToolRegistry, skills: readonly ToolDefinition[] = []): ToolDefinition[] {
  const planning = settings.agenticMode ? [...plans.toolsFor(dialect), askUser] : [];
  const taken = new Set(planning.map((t) => t.name));
  // A planning tool (and ask_user) wins a name clash: the plan panel depends on it.
  const rest = registry.list().filter((t) => !taken.has(t.name));
  for (const t of rest) taken.add(t.name);
  // The skill tools (load_skill, read_skill_file) come last, only while a skill is in use.
  return [...planning, ...rest, ...skills.filter((t) => !taken.has(t.name))];
}

export interface RequestInput {
  settings: Settings;
  dialect: Dialect;
  plans: PlanServiceApi;
  tools: ToolDefinition[];
  workspace: string | null;
  history: readonly MessageParam[];
  /** Plan first: how the mode works, while the chat waits for an approved plan (plan-first.ts). */
  planFirstNote?: string;
  /** The chosen model's output cap (model-facts.ts): no request asks for more. */
  maxOutputTokens?: number;
  /** The workspace's instructions and skill list (prompts/project-context.ts), stable between turns so the prefix stays cached. */
  projectPrompt?: string;
}

export function buildRequest(input: RequestInput): MessageCreateParamsBase {
  const { settings, dialect, plans, tools, workspace } = input;
  const planning = input.planFirstNote ? `${plans.guidance(dialect)}\n\n${input.planFirstNote}` : plans.guidance(dialect);
  const base = input.projectPrompt ? `${basePrompt(workspace)}\n\n${input.projectPrompt}` : basePrompt(workspace);
  const system = settings.agenticMode ? `${base}\n\n${planning}` : base;
  const clientTools: Tool[] = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  // The server tool goes last: the API runs it, so it is not among the tools Waypoint executes.
  const webSearch = webSearchTool(settings);
  const apiTools: ToolUnion[] = webSearch ? [...clientTools, webSearch] : clientTools;
  return {
    model: settings.model,
    max_tokens: Math.min(settings.maxTokens, input.maxOutputTokens ?? settings.maxTokens),
    system,
    // A copy: the SDK must not see later edits to our history mid-flight.
    messages: structuredClone([...input.history]),
    ...(apiTools.length ? { tools: apiTools } : {}),
  };
}

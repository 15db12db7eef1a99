import { z } from 'zod';
import { ApprovalRule } from './approval-rules';
import { BudgetMinutes, BudgetUsd } from './budget';
import { Dialect } from './plan';
import { MAX_THINKING_BUDGET, MIN_THINKING_BUDGET, ThinkingEffort } from './thinking';

/** Claude Desktop's `mcpServers` entry: a stdio command, or a streamable-HTTP url. */
export const McpServerConfig = z.union([
  z.object({
    command: z.string().refine((c) => c.trim() !== '', { error: 'Enter the command that starts the server.' }),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).optional(),
    trusted: z.boolean().optional(),
  }),
  z.object({
    // The client speaks streamable HTTP only: another scheme could never connect.
    url: z.url({ protocol: /^https?$/, error: 'Enter the server\'s address starting with http:// or https://.' }),
    headers: z.record(z.string(), z.string()).optional(),
    /** A client registered with the server's authorization server by hand; without it Waypoint registers itself. */
    client_id: z.string().min(1).max(500).optional(),
    trusted: z.boolean().optional(),
  }),
]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** Longest server name: its tools are called `NAME__tool` within the API's 64 characters. */
export const MCP_SERVER_NAME_MAX = 40;
/**
 * What is wrong with a server's name as Settings saves it (the form, the JSON editor and
 * setSettings), or null: it prefixes its tools' names, which the Messages API limits to letters,
 * digits, `_` and `-`. A settings file saved before this rule still loads (`Settings` takes any
 * name; tools/mcp/tool-name.ts sanitises it).
 */
export function mcpServerNameProblem(name: string): string | null {
  if (name.trim() === '') return 'An MCP server needs a name.';
  if (/^[A-Za-z0-9_-]+$/.test(name) && name.length <= MCP_SERVER_NAME_MAX) return null;
  return `"${name.slice(0, 60)}" cannot name an MCP server: use letters, digits, _ and - only (at most ${MCP_SERVER_NAME_MAX}), as its tools are called NAME__tool.`;
}

/** Settings' MCP servers by name: the one schema the form, the JSON editor and main's check share. */
export const McpServers = z.record(z.string(), McpServerConfig).check((ctx) => {
  for (const name of Object.keys(ctx.value)) {
    const problem = mcpServerNameProblem(name);
    if (problem) ctx.issues.push({ code: 'custom', input: name, path: [name], message: problem });
  }
});
export type McpServers = z.infer<typeof McpServers>;

export const DEFAULT_MODEL = 'claude-sonnet-5-5';

export const Settings = z.object({
  model: z.string().trim().min(1).max(200).default(DEFAULT_MODEL),
  agenticMode: z.boolean().default(true),
  planningStyle: Dialect.default('structured'),
  /** Claude explores read-only and proposes a plan; nothing changes until the user approves it (docs/contract.md §2). */
  planFirst: z.boolean().default(false),
  maxRetries: z.number().int().min(0).max(10).default(2),
  retryDelayMs: z.number().int().min(0).max(60_000).default(500),
  autoSkipNonCritical: z.boolean().default(false),
  autoSkipErrorTypes: z.array(z.string()).default(['conflict']),
  autoApproveEdits: z.boolean().default(false),
  autoApproveCommands: z.boolean().default(false),
  /** Saved approval rules ("Always approve", Settings): for every chat. The old command allow-list became rules. */
  approvalRules: z.array(ApprovalRule).max(1000, { error: 'At most 1,000 approval rules can be saved.' }).default([]),
  mcpServers: z.record(z.string().min(1), McpServerConfig).default({}),
  theme: z.enum(['system', 'light', 'dark']).default('system'),
  maxTokens: z.number().int().min(256).max(64_000).default(8192),
  /** Requests carry `thinking` from the next user turn (adaptive with effort, or a fixed budget: as the model takes it). */
  extendedThinking: z.boolean().default(false),
  thinkingBudgetTokens: z.number().int().min(MIN_THINKING_BUDGET).max(MAX_THINKING_BUDGET).default(8000),
  thinkingEffort: ThinkingEffort.default('high'),
  /** Model turns one message may take (each tool round is one) before the run pauses and asks the user to go on. */
  maxModelTurns: z.number().int().min(1).max(500).default(50),
  /** How many chats' runs go at once; a message sent while that many run waits as "Queued" (agent/loop/run-queue.ts). */
  runsAtOnce: z.number().int().min(1).max(16).default(4),
  /** How deep delegate calls nest: a sub-agent at this depth is not offered `delegate` (agent/loop/sub-agents.ts). */
  subAgentDepth: z.number().int().min(1).max(3).default(2),
  /** How many sub-agents of one chat work at once; the others wait their turn. */
  subAgentsAtOnce: z.number().int().min(1).max(8).default(3),
  /** Goal checks per plan: independent checks that a completed plan met its goal (agent/plan-hooks/goal-check.ts); 0 = off. */
  goalChecks: z.number().int().min(0).max(5).default(1),
  /** Web shell: the browser's notifications when a chat out of view waits for a person or finishes (its permission asked when turned on). */
  notifications: z.boolean().default(false),
  /** Settings "Instructions for every chat": in every chat's system prompt, before the project's files (agent/prompts/instructions). */
  instructionsForEveryChat: z
    .string()
    .max(40_000, { error: '"Instructions for every chat" is too long (the limit is 40,000 characters, all instructions together).' })
    .default(''),
  /** The skills unchecked in Settings "Skills" (on by default, so only those turned off are kept). */
  skillsTurnedOff: z.array(z.string().min(1).max(64)).max(1000).default([]),
  /** "Budget per plan (USD)" and "Time per plan (minutes)": a new plan's budget (null: none). */
  planBudgetUsd: BudgetUsd.nullable().default(null),
  planBudgetMinutes: BudgetMinutes.nullable().default(null),
  /** Settings "Web search": every request offers the Messages API's server-side web_search tool (agent/model/web-search-tool.ts). */
  webSearch: z.boolean().default(false),
  /** "Web searches per request": the tool's max_uses. */
  webSearchMaxUses: z.number().int().min(1, { error: '"Web searches per request" must be from 1 to 20.' }).max(20, { error: '"Web searches per request" must be from 1 to 20.' }).default(5),
  /** New chats in a git repository work in their own worktree on branch waypoint/<short chat id> (docs/architecture.md "Worktrees and Changes"). */
  worktrees: z.boolean().default(false),
});
export type Settings = z.infer<typeof Settings>;

type SettingsShape = typeof Settings.shape;
/**
 * A partial update of settings as it arrives over IPC: only known keys, each validated.
 * Built from the fields without their defaults: zod 4's `.partial()` would fill every absent
 * key with its default, so a one-field patch would silently reset all the others.
 */
export const SettingsPatch = z
  .object({
    ...(Object.fromEntries(Object.entries(Settings.shape).map(([key, field]) => [key, field.unwrap().optional()])) as {
      [K in keyof SettingsShape]: z.ZodOptional<ReturnType<SettingsShape[K]['unwrap']>>;
    }),
    // What is saved from now on holds names usable as tool prefixes (McpServerName).
    mcpServers: McpServers.optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export function defaultSettings(): Settings {
  return Settings.parse({});
}

/** What the renderer may know about the API key: never the key itself. */
export const ApiKeyState = z.object({
  hasApiKey: z.boolean(),
  source: z.enum(['env', 'settings', 'none']),
});
export type ApiKeyState = z.infer<typeof ApiKeyState>;

export const SettingsView = z.object({
  settings: Settings,
  apiKey: ApiKeyState,
});
export type SettingsView = z.infer<typeof SettingsView>;

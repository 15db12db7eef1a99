import type { McpServerState } from '../../../../shared/mcp';

/** What a rule added in Settings is about: one of Waypoint's tools, or one tool of an MCP server. */
export interface RuleTarget {
  tool: string;
  server?: string;
}

export interface McpToolChoice {
  /** The select's value: it carries the server and the tool (both may hold any character). */
  value: string;
  label: string;
}

const MCP_PREFIX = 'mcp:';

/** The tools of the MCP servers that are running, by server, for the rule's Tool list. */
export function mcpToolChoices(servers: readonly McpServerState[]): Array<{ server: string; tools: McpToolChoice[] }> {
  return servers.flatMap((server) =>
    server.status === 'ready' && server.tools.length
      ? [{ server: server.name, tools: server.tools.map((tool) => ({ value: MCP_PREFIX + JSON.stringify([server.name, tool]), label: tool })) }]
      : [],
  );
}

/** The select's value back as a rule's tool (and server). */
export function ruleTarget(value: string): RuleTarget {
  if (!value.startsWith(MCP_PREFIX)) return { tool: value };
  const [server, tool] = JSON.parse(value.slice(MCP_PREFIX.length)) as [string, string];
  return { tool, server };
}

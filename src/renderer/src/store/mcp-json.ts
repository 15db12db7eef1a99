import { McpServerConfig, mcpServerNameProblem, type Settings } from '../../../shared/settings';

export type McpJsonResult = { ok: true; servers: Settings['mcpServers'] } | { ok: false; message: string };

/** The editor's text for the current servers, in Claude Desktop's format. */
export function mcpJsonOf(servers: Settings['mcpServers']): string {
  return JSON.stringify({ mcpServers: servers }, null, 2);
}

/**
 * Reads the MCP servers editor: Claude Desktop's `{"mcpServers": {name: {command, args?, env?}
 * | {url, headers?}}}`. Every problem is one sentence naming the server and field to fix.
 */
export function parseMcpJson(text: string): McpJsonResult {
  if (text.trim() === '') return { ok: true, servers: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `MCP servers: the JSON is not valid (${(error as Error).message}). Nothing was saved.` };
  }
  const root = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const servers = root?.mcpServers;
  if (!root || typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    return { ok: false, message: 'MCP servers: expected {"mcpServers": {"name": {"command": …}}} as in Claude Desktop. Nothing was saved.' };
  }
  const parsed: Settings['mcpServers'] = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (name.trim() === '') return { ok: false, message: 'MCP servers: a server has an empty name. Nothing was saved.' };
    // The rules of Settings' McpServers schema, which the form and main apply too.
    const nameProblem = mcpServerNameProblem(name);
    if (nameProblem) return { ok: false, message: `MCP servers: ${nameProblem} Nothing was saved.` };
    const result = McpServerConfig.safeParse(entry);
    if (!result.success) {
      const hasUrl = typeof entry === 'object' && entry !== null && 'url' in entry;
      const expected = hasUrl ? '{"url": "https://…", "headers"?: {…}}' : '{"command": "…", "args"?: […], "env"?: {…}}';
      // The schema's own words about the command or URL when that is what is wrong (settings.ts).
      const words = result.error.issues.find((issue) => issue.path.length === 1 && (issue.path[0] === 'command' || issue.path[0] === 'url'))?.message;
      return { ok: false, message: `MCP servers: "${name}" should look like ${expected}.${words ? ` ${words}` : ''} Nothing was saved.` };
    }
    parsed[name] = result.data;
  }
  return { ok: true, servers: parsed };
}

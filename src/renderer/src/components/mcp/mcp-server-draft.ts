import { McpServers, type McpServerConfig } from '../../../../shared/settings';
import { formatArgLines, formatEnvLines, parseArgLines, parseEnvLines } from './mcp-server-lines';

/** The MCP server form's fields as typed. */
export interface McpServerDraft {
  name: string;
  kind: 'command' | 'url';
  command: string;
  args: string;
  env: string;
  url: string;
}

export type DraftField = 'name' | 'command' | 'env' | 'url';
export type DraftErrors = Partial<Record<DraftField, string>>;

export type DraftResult = { ok: true; name: string; servers: McpServers } | { ok: false; errors: DraftErrors };

export const EMPTY_DRAFT: McpServerDraft = { name: '', kind: 'command', command: '', args: '', env: '', url: '' };

/** The form filled in with a saved server, to edit it. */
export function draftOfServer(name: string, config: McpServerConfig): McpServerDraft {
  if ('url' in config) return { ...EMPTY_DRAFT, name, kind: 'url', url: config.url };
  return { ...EMPTY_DRAFT, name, kind: 'command', command: config.command, args: formatArgLines(config.args), env: formatEnvLines(config.env ?? {}) };
}

/**
 * The server the form describes. What the form does not show (trusted, headers, and whatever
 * else the JSON holds for that server) is kept while the kind stays the same; a server that
 * changes kind keeps only `trusted`.
 */
function configOf(draft: McpServerDraft, env: Record<string, string>, before: McpServerConfig | undefined): Record<string, unknown> {
  const sameKind = before && ('url' in before) === (draft.kind === 'url');
  const kept: Record<string, unknown> = sameKind ? { ...before } : before?.trusted !== undefined ? { trusted: before.trusted } : {};
  if (draft.kind === 'url') return { ...kept, url: draft.url.trim() };
  delete kept.env;
  return { ...kept, command: draft.command.trim(), args: parseArgLines(draft.args), ...(Object.keys(env).length > 0 ? { env } : {}) };
}

/**
 * Checks the form against the servers it joins and returns them with this one saved (renamed
 * when its name changed; `editing` is its name before). The rules are Settings' own schema
 * (McpServers, as the JSON editor and main use); only the lines and a name taken are the form's.
 */
export function applyDraft(draft: McpServerDraft, servers: Readonly<McpServers>, editing: string | null): DraftResult {
  const errors: DraftErrors = {};
  const name = draft.name.trim();
  const env = draft.kind === 'command' ? parseEnvLines(draft.env) : { ok: true as const, env: {} };
  if (!env.ok) errors.env = env.message;
  if (name !== editing && Object.hasOwn(servers, name)) errors.name = `There is already a server named "${name}": pick another name, or edit that one.`;
  const next: Record<string, unknown> = {};
  for (const [other, config] of Object.entries(servers)) {
    if (other === editing) next[name] = configOf(draft, env.ok ? env.env : {}, config);
    else next[other] = config;
  }
  if (editing === null || !Object.hasOwn(servers, editing)) next[name] = configOf(draft, env.ok ? env.env : {}, undefined);
  const parsed = McpServers.safeParse(next);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // Only this server's problems: the others were saved already and the JSON editor shows them.
      if (issue.path[0] !== name) continue;
      const field: DraftField = issue.path[1] === 'command' ? 'command' : issue.path[1] === 'url' ? 'url' : issue.path[1] === 'env' ? 'env' : 'name';
      errors[field] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (!parsed.success) return { ok: false, errors: { name: `This server cannot be saved: ${parsed.error.issues[0]?.message ?? 'invalid value'}` } };
  return { ok: true, name, servers: parsed.data };
}

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { dataDirProblem } from '../common/data-dir-check';
import { desktopDataDir } from '../app/data-folders';

export const DEFAULT_PORT = 4477;

export interface WebCliOptions {
  port: number;
  dataDir: string;
  workspace: string | null;
  mcpConfigPath: string | null;
  /** Neither --data-dir nor WAYPOINT_DATA_DIR chose the folder: the shared default is in use. */
  dataDirIsDefault: boolean;
}

export type CliParse =
  | { kind: 'run'; options: WebCliOptions }
  | { kind: 'help'; text: string }
  /** `exitCode`: 1 for a data folder that cannot be used (a bad option otherwise: 2). */
  | { kind: 'error'; message: string; exitCode?: 1 };

export const HELP_TEXT = `Usage: node out/main/web.js [options]

Starts Waypoint's web shell on 127.0.0.1 and prints its URL (with an access token).

Options:
  --port N           Port to listen on; 0 picks any free port (env WAYPOINT_PORT, default ${DEFAULT_PORT})
  --data-dir DIR     Where chats and settings are kept (env WAYPOINT_DATA_DIR; default: the desktop app's, ${desktopDataDir()})
  --workspace DIR    Folder Claude's tools may work in; must exist (env WAYPOINT_WORKSPACE)
  --mcp-config FILE  Claude Desktop style {"mcpServers": {...}} JSON (env WAYPOINT_MCP_CONFIG)
  --help             Show this help

The Anthropic client reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment.`;

const VALUE_OPTIONS = ['--port', '--data-dir', '--workspace', '--mcp-config'] as const;
type ValueOption = (typeof VALUE_OPTIONS)[number];

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function parsePort(text: string, from: string): number | string {
  if (!/^\d+$/.test(text) || Number(text) > 65535) return `${from} must be a port number from 0 to 65535 (0 = any free port), got "${text}".`;
  return Number(text);
}

/** Command line first, then environment, then defaults. Never touches the network. */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliParse {
  const given = new Map<ValueOption, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help', text: HELP_TEXT };
    const eq = arg.indexOf('=');
    const name = (eq > 0 ? arg.slice(0, eq) : arg) as ValueOption;
    if (!VALUE_OPTIONS.includes(name)) return { kind: 'error', message: `Unknown option "${arg}". Run with --help to see the options.` };
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) return { kind: 'error', message: `${name} needs a value.` };
    given.set(name, value);
  }

  const portText = given.get('--port') ?? env.WAYPOINT_PORT;
  const port = portText === undefined || portText === '' ? DEFAULT_PORT : parsePort(portText, given.has('--port') ? '--port' : 'WAYPOINT_PORT');
  if (typeof port === 'string') return { kind: 'error', message: port };

  const dataDir = resolve(cwd, given.get('--data-dir') || env.WAYPOINT_DATA_DIR || desktopDataDir(env));
  // Checked before anything is read or created there: /proc/self as a data folder spun forever.
  const dataDirRefused = dataDirProblem(dataDir);
  if (dataDirRefused) return { kind: 'error', message: dataDirRefused, exitCode: 1 };

  const workspaceText = given.get('--workspace') || env.WAYPOINT_WORKSPACE || null;
  const workspace = workspaceText === null ? null : resolve(cwd, workspaceText);
  if (workspace !== null && !isDirectory(workspace)) {
    return { kind: 'error', message: `Workspace folder "${workspace}" does not exist or is not a folder. Create it or pick another with --workspace.` };
  }

  const mcpText = given.get('--mcp-config') || env.WAYPOINT_MCP_CONFIG || null;
  const mcpConfigPath = mcpText === null ? null : resolve(cwd, mcpText);
  if (mcpConfigPath !== null) {
    try {
      if (!statSync(mcpConfigPath).isFile()) throw new Error('not a file');
    } catch {
      return { kind: 'error', message: `MCP config file "${mcpConfigPath}" does not exist or is not a file.` };
    }
  }
  const dataDirIsDefault = !given.get('--data-dir') && !env.WAYPOINT_DATA_DIR;
  return { kind: 'run', options: { port, dataDir, workspace, mcpConfigPath, dataDirIsDefault } };
}

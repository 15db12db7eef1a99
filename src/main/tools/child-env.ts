/**
 * The environment Waypoint hands to the programs it starts for Claude (run_command, MCP stdio
 * servers). It is built from an allow-list, not by removing known secrets: the API key and any
 * other credential in Waypoint's own environment (ANTHROPIC_API_KEY, GITHUB_TOKEN, AWS_…)
 * would otherwise be one `printenv` away from the chat log, every open tab and the next request.
 */
import { looksSecret } from '../common/secret-names';

/** Variables a command needs to find its tools, home, locale, terminal and temp folder. */
const ALLOWED = new Set([
  // POSIX
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  // Windows
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'COMMONPROGRAMFILES',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
]);

/** Locale categories (LC_ALL, LC_CTYPE, …) are allowed as a family. */
const ALLOWED_PREFIX = /^LC_[A-Z_]+$/;

/** Allowed, and never anything that looks like a secret: a future allow-list entry can never let one through. */
export function isAllowedVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return (ALLOWED.has(upper) || ALLOWED_PREFIX.test(upper)) && !looksSecret(name);
}

/** Only the allowed variables of `env` (Windows names are matched case-insensitively, as Windows does). */
export function scrubbedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && isAllowedVariable(name)) kept[name] = value;
  return kept;
}

/**
 * For run_command: the scrubbed environment, non-interactive (pagers and credential prompts
 * would wait forever on a closed stdin) and without colour codes (they are noise to Claude).
 */
export function commandEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return {
    ...scrubbedEnv(env),
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    CLICOLOR: '0',
  };
}

/**
 * For an MCP stdio server: the scrubbed environment plus exactly what its configuration sets
 * (`"env": {"GITHUB_TOKEN": "…"}` in mcpServers): the user gave that server those values.
 */
export function mcpServerEnv(env: NodeJS.ProcessEnv, configured: Record<string, string> | undefined): Record<string, string> {
  return { ...scrubbedEnv(env), ...configured };
}

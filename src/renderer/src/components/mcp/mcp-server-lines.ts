/**
 * The MCP server form's two multi-line fields. "Arguments" holds one argument per line, so an
 * argument keeps its spaces and quotes exactly (no shell splitting); "Environment" holds one
 * NAME=value per line, the value being everything after the first `=`. Blank lines are nothing.
 */

const lines = (text: string): string[] => text.split(/\r?\n/);

export function parseArgLines(text: string): string[] {
  return lines(text).filter((line) => line !== '');
}

export function formatArgLines(args: readonly string[]): string {
  return args.join('\n');
}

/** What a variable's name may be (POSIX shells' rule): what a server reads as one. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export type EnvLinesResult = { ok: true; env: Record<string, string> } | { ok: false; message: string };

/**
 * Reads NAME=value lines. A refused line is named by its number only: values are often tokens,
 * and the message is shown (and could be reported) where the line itself should not be.
 */
export function parseEnvLines(text: string): EnvLinesResult {
  // A Map, not an object: a variable may be called __proto__.
  const env = new Map<string, string>();
  const all = lines(text);
  for (const [index, line] of all.entries()) {
    if (line.trim() === '') continue;
    const eq = line.indexOf('=');
    const name = eq < 0 ? '' : line.slice(0, eq);
    if (!ENV_NAME.test(name)) {
      return { ok: false, message: `Environment line ${index + 1}: write it as NAME=value, the name made of letters, digits and _ (not starting with a digit).` };
    }
    if (env.has(name)) return { ok: false, message: `Environment line ${index + 1}: ${name} is given more than once.` };
    env.set(name, line.slice(eq + 1));
  }
  return { ok: true, env: Object.fromEntries(env) };
}

export function formatEnvLines(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
}

/** Tool names the Messages API accepts: ^[a-zA-Z0-9_-]{1,64}$. */
export const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

const clean = (s: string): string => s.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * `<server>__<tool>`, sanitised and cut to 64 characters; `taken` names get a numeric suffix so
 * two tools never collide after sanitising.
 */
export function mcpToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const base = (`${clean(server) || 'server'}__${clean(tool) || 'tool'}`).slice(0, MAX);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = base.slice(0, MAX - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

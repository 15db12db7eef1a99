/**
 * What every planning tool shares (spread into its `defineTool` spec): its group, no approval
 * (a plan changes nothing outside Waypoint), and a cap on the input's size. Each tool adds its
 * `usage`, appended to validation errors to say how to call it right.
 */

/**
 * A planning call larger than this is refused before it is parsed: the one guard against a
 * runaway input (the schemas state the rules; the engine's limits give the precise errors).
 */
const MAX_PLANNING_INPUT_CHARS = 500_000;

export const PLANNING = {
  group: 'planning',
  maxInputChars: MAX_PLANNING_INPUT_CHARS,
  needsApproval: () => false,
} as const;

export function textOf(value: unknown, fallback: string, max = 80): string {
  if (typeof value !== 'string' || value.trim() === '') return fallback;
  const text = value.trim().replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function countOf(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

export function jsonContent(value: unknown): string {
  return JSON.stringify(value);
}

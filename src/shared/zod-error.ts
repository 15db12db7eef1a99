import type { z } from 'zod';

/** More problems than this are counted, not listed: the first ones are what a fix starts from. */
const LISTED = 4;

/**
 * The one wording of a zod failure, wherever input is refused (IPC calls, the web shell's frames,
 * settings, MCP configuration, tool input Claude sent): one line, each problem as
 * "path: what is wrong" ("steps.0.description: expected string, received number"), a problem
 * with the whole value as just what is wrong. zod's generic "Invalid input: " lead-in is dropped:
 * the caller's sentence already says the input was refused.
 */
export function describeZodError(error: z.ZodError | readonly z.core.$ZodIssue[]): string {
  const issues = Array.isArray(error) ? (error as readonly z.core.$ZodIssue[]) : (error as z.ZodError).issues;
  if (issues.length === 0) return 'invalid value';
  const parts = issues.slice(0, LISTED).map((issue) => {
    const path = issue.path.map(String).join('.');
    const message = issue.message.replace(/^Invalid input: /, '').replace(/\s+/g, ' ').trim() || 'invalid value';
    return path ? `${path}: ${message}` : message;
  });
  if (issues.length > LISTED) parts.push(`and ${issues.length - LISTED} more problem(s)`);
  return parts.join('; ');
}

import { z } from 'zod';
import { hasShellControl, normaliseCommandLine } from './command-line';
import { isGitSegment } from './git-names';

/**
 * Approval rules (docs/contract.md §5 "Approval scopes"): what a risky tool call may do without asking.
 * A rule names a tool (an MCP tool also its server) and a pattern: for run_command the exact
 * command line (whitespace between words normalised, never a prefix), for write_file and
 * edit_file a path glob inside the workspace (`**` is any path), for any other tool `*` (every
 * call of it). "Always approve" and Settings save rules for every chat; "Approve for this chat"
 * keeps one with that chat only. A deny rule ("Never allow") refuses without asking.
 */

export const FILE_TOOLS: readonly string[] = ['write_file', 'edit_file'];
export const COMMAND_TOOL = 'run_command';
/** The pattern of a rule that covers every path in the workspace, or every call of a tool. */
export const ANY_PATH = '**';
export const ANY_CALL = '*';

export const EMPTY_PATTERN_MESSAGE =
  'An approval rule needs a pattern: the exact command line for run_command, a path in the workspace (** for any) for write_file and edit_file.';

export const RuleEffect = z.enum(['allow', 'deny']);
export type RuleEffect = z.infer<typeof RuleEffect>;

/** What a rule is made of, before it has an id: validated the same way wherever it comes from. */
export const ApprovalRuleFields = z
  .object({
    tool: z.string().trim().min(1, { error: 'An approval rule must name its tool.' }).max(200),
    /** The MCP server the tool comes from; absent for Waypoint's own tools. */
    server: z.string().trim().min(1).max(200).optional(),
    // An empty pattern is patternProblem's to word: a refine here as well said it twice.
    pattern: z.string().max(20_000, { error: 'The pattern of an approval rule is too long (the limit is 20,000 characters).' }),
    effect: RuleEffect,
  })
  .strict()
  .superRefine((rule, ctx) => {
    const problem = patternProblem(rule.tool, rule.server, rule.pattern) ?? allowProblem(rule);
    if (problem) ctx.addIssue({ code: 'custom', path: ['pattern'], message: problem });
  });
export type ApprovalRuleFields = z.infer<typeof ApprovalRuleFields>;

export const ApprovalRule = z
  .object({
    id: z.string().min(1).max(100),
    tool: z.string().trim().min(1).max(200),
    server: z.string().trim().min(1).max(200).optional(),
    pattern: z.string().max(20_000),
    effect: RuleEffect,
    createdAt: z.string(),
  })
  .superRefine((rule, ctx) => {
    const problem = patternProblem(rule.tool, rule.server, rule.pattern);
    if (problem) ctx.addIssue({ code: 'custom', path: ['pattern'], message: problem });
  });
export type ApprovalRule = z.infer<typeof ApprovalRule>;

/**
 * Why a pattern cannot be a rule for this tool, or null. A rule that could never match would
 * look like protection (or permission) that is not there, so it is refused when it is made.
 */
export function patternProblem(tool: string, server: string | undefined, pattern: string): string | null {
  const text = pattern.trim();
  if (!text) return EMPTY_PATTERN_MESSAGE;
  if (!server && tool === COMMAND_TOOL) {
    if (hasShellControl(text)) {
      return 'A run_command rule is one exact command line: shell operators (; & | < > ` $( or line breaks) are not allowed, and such commands are always asked.';
    }
    if (normaliseCommandLine(text) === null) return 'A run_command rule has a quote left open: close it, or write the command without it.';
    return null;
  }
  if (!server && FILE_TOOLS.includes(tool)) {
    if (text.startsWith('/') || /^[a-zA-Z]:/.test(text) || text.startsWith('~')) {
      return `A ${tool} rule names paths inside the workspace, relative to it (e.g. src/** or ${ANY_PATH} for any path).`;
    }
    if (text.split('/').includes('..')) return `A ${tool} rule cannot reach outside the workspace with "..".`;
    if (text.includes('\\')) return `A ${tool} rule uses forward slashes between folders.`;
    return null;
  }
  return null;
}

/**
 * Why a new allow rule would never apply, or null: changes to git's own files always ask
 * (docs/security.md "Protected changes"), so a rule naming them is refused when it is made. Only
 * new rules: a saved one stays readable (it simply never lets such a change through).
 */
function allowProblem(rule: { tool: string; server?: string; pattern: string; effect: RuleEffect }): string | null {
  if (rule.effect !== 'allow' || rule.server || !FILE_TOOLS.includes(rule.tool)) return null;
  if (!rule.pattern.trim().split('/').some(isGitSegment)) return null;
  return `Changes to git's own files (.git: its configuration and hooks) always ask, whatever the rules say, so a ${rule.tool} rule cannot allow them.`;
}

/** The rule's tool in words: "run_command", or "echo (MCP server test)". */
export function ruleToolLabel(rule: Pick<ApprovalRule, 'tool' | 'server'>): string {
  return rule.server ? `${rule.tool} (MCP server ${rule.server})` : rule.tool;
}

/** What the rule covers, in words: the command, the path, or every call. */
export function rulePatternLabel(rule: Pick<ApprovalRule, 'tool' | 'server' | 'pattern'>): string {
  if (!rule.server && rule.tool === COMMAND_TOOL) return rule.pattern;
  if (!rule.server && FILE_TOOLS.includes(rule.tool)) return rule.pattern === ANY_PATH ? 'any path in the workspace' : rule.pattern;
  return rule.pattern === ANY_CALL || rule.pattern === ANY_PATH ? 'every call' : rule.pattern;
}

/** One line for a list: "Always allow run_command: npm test". */
export function describeRule(rule: Pick<ApprovalRule, 'tool' | 'server' | 'pattern' | 'effect'>): string {
  return `${rule.effect === 'allow' ? 'Always allow' : 'Never allow'} ${ruleToolLabel(rule)}: ${rulePatternLabel(rule)}`;
}

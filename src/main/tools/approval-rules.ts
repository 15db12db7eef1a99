import { minimatch } from 'minimatch';
import { ANY_CALL, ANY_PATH, type ApprovalRule } from '../../shared/approval-rules';
import { matchesCommandLine, normaliseCommandLine, hasShellControl } from '../../shared/command-line';
import type { ApprovalScope } from '../../shared/prompts';
import type { ParsedInput, RuleSubject, ToolDefinition } from './tool';

/**
 * Whether approval rules cover a tool call (docs/contract.md §5 "Approval scopes"). Pure. A rule names
 * one tool (an MCP tool by its server and its own name) and matches on the call's subject:
 * - a command: that exact command line (command-line.ts: whitespace-normalised words, never a
 *   prefix, never a line with shell operators);
 * - a file change: a glob over the workspace-relative path (`**` is any path in the workspace);
 * - any other tool: every call (`*`).
 * A deny rule wins over any allow rule.
 */

export type RuleTool = Pick<ToolDefinition, 'name' | 'server' | 'serverTool'>;

/** The call's subject, failing safe: a throwing tool gives null (no rule covers it). */
export function subjectOf(tool: Pick<ToolDefinition, 'ruleSubject'>, input: ParsedInput): RuleSubject | null {
  if (!tool.ruleSubject) return { kind: 'call' };
  try {
    return tool.ruleSubject(input);
  } catch {
    return null;
  }
}

function sameTool(rule: ApprovalRule, tool: RuleTool): boolean {
  if (rule.server) return tool.server === rule.server && (tool.serverTool ?? tool.name) === rule.tool;
  return !tool.server && tool.name === rule.tool;
}

function patternCovers(pattern: string, subject: RuleSubject): boolean {
  switch (subject.kind) {
    case 'command':
      return matchesCommandLine(subject.command, pattern);
    case 'path':
      // dot: a rule for ** covers .env too; nocase off: paths are case-sensitive where it matters.
      return subject.path !== '' && subject.path !== '.' && minimatch(subject.path, pattern.trim(), { dot: true, nonegate: true, nocomment: true });
    case 'call':
      return pattern.trim() === ANY_CALL || pattern.trim() === ANY_PATH;
  }
}

export function ruleCovers(rule: ApprovalRule, tool: RuleTool, subject: RuleSubject | null): boolean {
  return subject !== null && sameTool(rule, tool) && patternCovers(rule.pattern, subject);
}

/** The rule that decides this call, deny first; null when no rule covers it (ask, or the tool's own answer). */
export function ruleVerdict(rules: readonly ApprovalRule[], tool: RuleTool, subject: RuleSubject | null): ApprovalRule | null {
  let allow: ApprovalRule | null = null;
  for (const rule of rules) {
    if (!ruleCovers(rule, tool, subject)) continue;
    if (rule.effect === 'deny') return rule;
    allow ??= rule;
  }
  return allow;
}

/**
 * What "Approve for this chat" and "Always approve" remember for this call: the exact command
 * line, any path in the workspace for a file tool, the tool of that server otherwise. Null when no
 * rule can hold it (a command with shell operators or an open quote, or input that is not valid).
 */
export function scopeOf(tool: RuleTool, subject: RuleSubject | null): ApprovalScope | null {
  if (!subject) return null;
  const who = tool.server ? { tool: tool.serverTool ?? tool.name, server: tool.server } : { tool: tool.name };
  switch (subject.kind) {
    case 'command': {
      const line = hasShellControl(subject.command) ? null : normaliseCommandLine(subject.command);
      return line ? { ...who, pattern: line } : null;
    }
    case 'path':
      return { ...who, pattern: ANY_PATH };
    case 'call':
      return { ...who, pattern: ANY_CALL };
  }
}

import { randomUUID } from 'node:crypto';
import { COMMAND_TOOL, patternProblem, type ApprovalRule } from '../../shared/approval-rules';

/**
 * settings.json written by earlier versions, brought to today's shape before it is validated
 * (so nothing a user set is dropped as an unknown key). Pure apart from the new rules' ids.
 *
 * - `commandAllowList` (before approval rules): each entry becomes an "always allow" rule for
 *   run_command with that exact command line. An entry no rule can hold (it has shell operators,
 *   which the allow-list never matched either) is dropped, and said so.
 */
export interface Migrated {
  value: unknown;
  /** What changed, in sentences for the log; empty when the file was already current. */
  notes: string[];
}

export function migrateSettings(raw: unknown, now = new Date()): Migrated {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('commandAllowList' in raw)) return { value: raw, notes: [] };
  const { commandAllowList, ...rest } = raw as Record<string, unknown>;
  const entries = Array.isArray(commandAllowList) ? commandAllowList.filter((e): e is string => typeof e === 'string' && e.trim() !== '') : [];
  const existing = Array.isArray(rest.approvalRules) ? (rest.approvalRules as unknown[]) : [];
  const have = new Set(existing.map((r) => (isCommandRule(r) ? r.pattern.trim() : null)));
  const rules: ApprovalRule[] = [];
  const notes: string[] = [];
  for (const entry of entries) {
    const pattern = entry.trim();
    if (have.has(pattern)) continue;
    const problem = patternProblem(COMMAND_TOOL, undefined, pattern);
    if (problem) {
      notes.push(`The allowed command "${pattern}" could not become an approval rule (${problem}); it is asked each time.`);
      continue;
    }
    have.add(pattern);
    rules.push({ id: randomUUID(), tool: COMMAND_TOOL, pattern, effect: 'allow', createdAt: now.toISOString() });
  }
  if (rules.length) notes.push(`The command allow-list became ${rules.length} approval rule${rules.length === 1 ? '' : 's'} (Settings → Approval rules).`);
  return { value: { ...rest, approvalRules: [...existing, ...rules] }, notes };
}

function isCommandRule(rule: unknown): rule is { pattern: string } {
  return typeof rule === 'object' && rule !== null && (rule as { tool?: unknown }).tool === COMMAND_TOOL && typeof (rule as { pattern?: unknown }).pattern === 'string';
}

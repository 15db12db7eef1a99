import type { GoalCheck, Plan } from '../../../shared/plan';
import type { GoalCheckResult } from '../../plan/plan-service.types';
import type { GoalReport } from './goal-check-request';

/**
 * When the goal check runs and what its report leads to: pure, so the rounds and the
 * no-progress rule are property-tested (goal-check-rounds.property.test.ts).
 */

/** At most this many findings become "Fix: …" steps: a runaway list would swamp the plan. */
export const MAX_FINDINGS = 10;

/**
 * A check is due when the plan completed (complete_plan "success", or its last step done) since
 * the last check, the plan still stands (not undone), and fewer than `rounds` checks (Settings
 * "Goal checks"; 0 = off) were made of it.
 */
export function goalCheckDue(plan: Plan | null, rounds: number): plan is Plan {
  if (!plan || plan.status !== 'completed' || !plan.goalCheckDue || plan.undone) return false;
  return (plan.goalChecks?.length ?? 0) < rounds;
}

/** Findings as compared and shown: trimmed, blank ones dropped, repeats dropped, at most MAX_FINDINGS. */
export function cleanFindings(findings: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const finding of findings) {
    const text = finding.trim().replace(/\s+/g, ' ');
    const key = text.toLowerCase();
    if (!text || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
    if (out.length === MAX_FINDINGS) break;
  }
  return out;
}

/** The same findings as before, in any order or case: the fixes made no progress. */
export function sameFindings(a: readonly string[], b: readonly string[]): boolean {
  const key = (list: readonly string[]) => [...new Set(cleanFindings(list).map((f) => f.toLowerCase()))].sort().join('\n');
  return key(a) === key(b);
}

/**
 * What a report means for the plan. Met: recorded. A malformed report (or a "not met" naming
 * nothing to fix) is a failed check: recorded, never as met, and it starts no round. Not met
 * with the previous check's findings again: recorded as no progress, no round. Otherwise not
 * met: the plan reopens with the findings as "Fix: …" steps and Claude carries on.
 */
export function judge(report: GoalReport, previous: GoalCheck | undefined): GoalCheckResult {
  if (!report.ok) return { outcome: 'failed', findings: [], error: report.error };
  const findings = cleanFindings(report.findings);
  if (report.met) return { outcome: 'met', findings };
  if (findings.length === 0) return { outcome: 'failed', findings: [], error: 'The check said the goal was not met but named nothing to fix.' };
  if (previous?.outcome === 'not_met' && sameFindings(previous.findings, findings)) return { outcome: 'not_met', findings, noProgress: true };
  return { outcome: 'not_met', findings, reopened: true };
}

import type { GoalCheck, Plan } from '../../../shared/plan';
import { addSteps } from './add-steps';
import { type EngineOptions, MAX_TITLE_LENGTH, type OpResult, rejected } from './engine-types';
import { sealPlan } from './seal';

/** What a goal check found (agent/plan-hooks/goal-check.ts asks; this records). */
export type GoalCheckResult = Pick<GoalCheck, 'outcome' | 'findings'> & Partial<Pick<GoalCheck, 'error' | 'noProgress' | 'reopened'>>;

const FIX = 'Fix: ';

/**
 * Records a goal check of the plan's current completion: the plan stays as it is (closed), the
 * check is appended and the completion is no longer due, so it is never checked twice — the
 * record is a plan change, in the chat's log, so this holds across a restart.
 */
export function recordGoalCheck(plan: Plan, result: GoalCheckResult, options: EngineOptions): OpResult {
  if (plan.status !== 'completed' || !plan.goalCheckDue) return rejected('This plan has no completion waiting for a goal check.');
  const checks = plan.goalChecks ?? [];
  const check: GoalCheck = { round: checks.length + 1, at: options.now().toISOString(), ...result };
  const words = result.outcome === 'met' ? 'met' : result.outcome === 'not_met' ? `not met (${result.findings.length} finding${result.findings.length === 1 ? '' : 's'})` : 'check failed';
  return sealPlan({ ...plan, goalCheckDue: false, goalChecks: [...checks, check] }, plan.version, options, `Goal check: ${words}`);
}

/** The "Fix: …" title of a finding, within the engine's title limit. */
export function fixTitle(finding: string): string {
  const title = `${FIX}${finding.trim().replace(/\s+/g, ' ')}`;
  return title.length > MAX_TITLE_LENGTH ? `${title.slice(0, MAX_TITLE_LENGTH - 1)}…` : title;
}

/**
 * A goal check not met: the plan reopens (Claude's completion set aside) with one pending
 * "Fix: FINDING" step per finding, after everything else.
 */
export function reopenWithFixes(plan: Plan, findings: readonly string[], options: EngineOptions): OpResult {
  if (plan.status !== 'completed') return rejected('Only a completed plan can be reopened by its goal check.');
  if (findings.length === 0) return rejected('A reopened plan needs at least one finding to fix.');
  const { completion: _setAside, ...rest } = plan;
  const open: Plan = { ...rest, status: 'active' };
  const drafts = findings.map((finding) => ({ title: fixTitle(finding) }));
  return addSteps(open, drafts, options, `Goal check not met: plan reopened with ${findings.length} fix step${findings.length === 1 ? '' : 's'}`);
}

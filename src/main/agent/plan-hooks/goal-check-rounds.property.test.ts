import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GoalCheck, Plan } from '../../../shared/plan';
import { goalCheckDue, judge, MAX_FINDINGS, sameFindings } from './goal-check-rounds';
import type { GoalReport } from './goal-check-request';

// The rounds and the no-progress rule of the goal check (issue 25), over random sequences of reports.

const finding = fc.constantFrom('Spelling', 'spelling ', 'Capital H', 'Tests fail', 'No README', '  ');
const report: fc.Arbitrary<GoalReport> = fc.oneof(
  fc.record({ ok: fc.constant(true as const), met: fc.boolean(), findings: fc.array(finding, { maxLength: 4 }) }),
  fc.constant({ ok: false as const, error: 'Invalid report_goal_check input.' }),
);

/** A completed plan due for its check, with the checks made so far. */
const due = (checks: GoalCheck[]): Plan =>
  ({ id: 'p', status: 'completed', goalCheckDue: true, goalChecks: checks, steps: [], goal: 'g' }) as unknown as Plan;

describe('goal check rounds', () => {
  it('never more checks than Settings "Goal checks", never a round after met, failed or no progress, and "met" only from a well-formed report', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.array(report, { maxLength: 8 }), (rounds, reports) => {
        const checks: GoalCheck[] = [];
        let open = true; // the plan completed again and is due
        for (const r of reports) {
          if (!open || !goalCheckDue(due(checks), rounds)) break;
          const result = judge(r, checks.at(-1));
          checks.push({ round: checks.length + 1, at: 't', ...result });
          if (result.outcome === 'met') expect(r.ok && r.met).toBe(true);
          if (!r.ok) expect(result.outcome).toBe('failed');
          expect(result.findings.length).toBeLessThanOrEqual(MAX_FINDINGS);
          if (result.reopened) expect(result.findings.length).toBeGreaterThan(0);
          // Only a reopened plan can complete again and be checked once more.
          open = !!result.reopened;
        }
        expect(checks.length).toBeLessThanOrEqual(rounds);
        for (let i = 1; i < checks.length; i++) {
          const before = checks[i - 1]!;
          expect(before.reopened).toBe(true);
          // A second "not met" with the same findings is no progress, and it reopens nothing.
          if (checks[i]!.outcome === 'not_met' && sameFindings(before.findings, checks[i]!.findings)) {
            expect(checks[i]).toMatchObject({ noProgress: true });
            expect(checks[i]!.reopened).toBeUndefined();
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is not due for a plan that is not completed, was undone, was already checked, or with Goal checks 0', () => {
    expect(goalCheckDue(due([]), 1)).toBe(true);
    expect(goalCheckDue(due([]), 0)).toBe(false);
    expect(goalCheckDue({ ...due([]), goalCheckDue: false }, 3)).toBe(false);
    expect(goalCheckDue({ ...due([]), status: 'partial' }, 3)).toBe(false);
    expect(goalCheckDue({ ...due([]), undone: { at: 't', restored: [], deleted: [], skipped: [] } }, 3)).toBe(false);
    expect(goalCheckDue(null, 3)).toBe(false);
  });
});
